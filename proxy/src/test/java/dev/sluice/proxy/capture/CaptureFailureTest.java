package dev.sluice.proxy.capture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.sluice.config.CaptureConfig;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A file that cannot be written turns capture off; a writer that cannot keep up costs drops, never waits. */
class CaptureFailureTest {

    @TempDir
    Path dir;

    @Test
    void aPathThatCannotBeCreatedTurnsCaptureOff() throws Exception {
        Path notAFolder = Files.writeString(dir.resolve("plain-file"), "x");
        CaptureHarness capture = new CaptureHarness(CaptureConfig.jsonl(notAFolder.resolve("capture.jsonl")));

        await().atMost(Duration.ofSeconds(10)).until(() -> !capture.control.status().running());

        CaptureStatus status = capture.control.status();
        assertThat(status.failure()).hasValueSatisfying(reason -> assertThat(reason)
                .startsWith("cannot write " + notAFolder.resolve("capture.jsonl") + ": "));
        assertThat(status.describe()).startsWith("capture off after a failure: cannot write ");
        assertThat(capture.control.stats().failures()).isEqualTo(1);
        TestSession session = new TestSession(1, "app", null);
        assertThat(capture.command(session, Frames.query("SELECT 1"))).isNull();
    }

    @Test
    void aFullDiskTurnsCaptureOffAndCountsWhatWasLost() throws Exception {
        Path full = Path.of("/dev/full");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.exists(full), "no /dev/full on this system");
        CaptureHarness capture = new CaptureHarness(CaptureConfig.jsonl(full));
        TestSession session = new TestSession(1, "app", null);
        for (int i = 0; i < 10; i++) {
            capture.run(session, Frames.query("SELECT " + i), Frames.rows(1), 10);
        }

        await().atMost(Duration.ofSeconds(10)).until(() -> !capture.control.status().running());

        assertThat(capture.control.status().failure()).hasValue("cannot write /dev/full: No space left on device");
        CaptureStats stats = capture.control.stats();
        assertThat(stats.failures()).isEqualTo(1);
        assertThat(stats.writtenStatements()).isZero();
        assertThat(stats.droppedStatements()).isEqualTo(stats.queuedStatements());
        // Statements after the failure are not even copied.
        assertThat(capture.command(session, Frames.query("SELECT 11"))).isNull();
        capture.control.disable();
        // Enabled again, it tries again (and fails again, once more counted).
        capture.control.enable();
        capture.run(session, Frames.query("SELECT 12"), Frames.rows(1), 10);
        await().atMost(Duration.ofSeconds(10)).until(() -> capture.control.stats().failures() == 2);
    }

    @Test
    void aStuckWriterDropsAndCountsButNeverBlocksTheCaller() throws Exception {
        Path fifo = dir.resolve("stuck.fifo");
        Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).start();
        org.junit.jupiter.api.Assumptions.assumeTrue(mkfifo.waitFor(10, TimeUnit.SECONDS) && mkfifo.exitValue() == 0,
                "mkfifo is not available");
        // A reader that opens the pipe but reads nothing until told: the writer blocks once the pipe is full.
        CompletableFuture<InputStream> reader = CompletableFuture.supplyAsync(() -> {
            try {
                return Files.newInputStream(fifo);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        CaptureHarness capture = new CaptureHarness(CaptureConfig.jsonl(fifo).withQueueSize(1));
        InputStream in = reader.get(10, TimeUnit.SECONDS);
        TestSession session = new TestSession(1, "app", null);
        String padding = "x".repeat(200);
        long start = System.nanoTime();
        for (int i = 0; i < 20_000; i++) {
            capture.run(session, Frames.query("SELECT " + i + " /* " + padding + " */"), Frames.rows(1), 10);
        }
        long elapsedMillis = (System.nanoTime() - start) / 1_000_000;

        CaptureStats stats = capture.control.stats();
        assertThat(stats.queuedStatements() + stats.droppedStatements()).isEqualTo(20_000);
        // The pipe holds 64 KiB, some 300 lines: most of 20,000 statements cannot have been taken.
        assertThat(stats.droppedStatements()).isGreaterThan(15_000);
        assertThat(elapsedMillis).as("20,000 statements offered to a stuck writer").isLessThan(5_000);

        CompletableFuture<String> drained = CompletableFuture.supplyAsync(() -> {
            try (in) {
                return new String(in.readAllBytes(), StandardCharsets.UTF_8);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        capture.control.disable();
        String written = drained.get(20, TimeUnit.SECONDS);
        assertThat(written.lines().count()).isEqualTo(stats.queuedStatements()).isEqualTo(stats.writtenStatements());
    }
}
