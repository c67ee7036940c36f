package dev.sluice.proxy.memory;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The pacer in JVMs of the proxy's collector: without it, every round's promoted garbage stays in
 * the old generation (the serial collector grows it instead of collecting it); with it, the old
 * generation stays near twice its live data.
 */
class OldGenerationPacerTest {

    private static final long MIB = 1 << 20;

    @Test
    void unpacedOldGenerationKeepsEveryRoundsGarbage() throws Exception {
        Map<String, Long> run = churn("unpaced");
        assertThat(run.get("collections")).isZero();
        assertThat(run.get("old_peak")).isGreaterThan((PromotedChurn.ROUNDS - 2L) * PromotedChurn.ROUND_BYTES);
    }

    @Test
    void pacedOldGenerationStaysNearTwiceItsLiveData() throws Exception {
        Map<String, Long> run = churn("paced");
        assertThat(run.get("collections")).isPositive();
        // Live at most one round (12 MiB) and the JVM's own, so the threshold stays at the 32 MiB floor;
        // the churn promotes fast, so some more arrives before the notification's collection runs.
        assertThat(run.get("old_peak")).isLessThan(2 * OldGenerationPacer.FLOOR);
        assertThat(run.get("old_committed")).isLessThan(80 * MIB);
    }

    @Test
    void installsNothingWhereTheCollectorPacesItself() throws Exception {
        // This JVM runs the test's default collector (G1 here), which starts marking on its own.
        boolean serialOrParallel = java.lang.management.ManagementFactory.getMemoryPoolMXBeans().stream()
                .anyMatch(p -> p.getName().equals("Tenured Gen") || p.getName().equals("PS Old Gen"));
        assertThat(OldGenerationPacer.install().isPresent()).isEqualTo(serialOrParallel);
    }

    private static Map<String, Long> churn(String mode) throws IOException, InterruptedException {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process process = new ProcessBuilder(List.of(java.toString(), "-XX:+UseSerialGC", "-Xms16m", "-Xmn8m",
                "-Xmx512m", "-cp", System.getProperty("java.class.path"), PromotedChurn.class.getName(), mode))
                .redirectErrorStream(true).start();
        process.getOutputStream().close();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("churn finished: %s", out).isTrue();
        assertThat(process.exitValue()).as("churn's exit: %s", out).isZero();
        Map<String, Long> values = new HashMap<>();
        String last = out.strip().lines().reduce((a, b) -> b).orElse("");
        for (String pair : last.split(" ")) {
            String[] kv = pair.split("=");
            values.put(kv[0], Long.parseLong(kv[1]));
        }
        assertThat(values).as("churn's output: %s", out).containsKeys("old_peak", "old_committed", "collections");
        return values;
    }
}
