package dev.sluice.proxy.capture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What capture's file is created as, and where it refuses to write. */
class RotatingFileTest {

    @TempDir
    Path dir;

    @Test
    void aNewFileIsReadableByItsOwnerOnly() throws IOException {
        Path file = dir.resolve("capture.jsonl");
        try (RotatingFile out = new RotatingFile(file, 1024, 2, "", () -> { })) {
            out.append("x\n".getBytes(StandardCharsets.UTF_8), 2);
        }
        assertThat(Files.getPosixFilePermissions(file))
                .containsExactlyInAnyOrder(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE);
    }

    @Test
    void aRotatedFileStartsOwnerOnlyToo() throws IOException {
        Path file = dir.resolve("capture.jsonl");
        byte[] entry = "y".repeat(700).getBytes(StandardCharsets.UTF_8);
        try (RotatingFile out = new RotatingFile(file, 1024, 3, "", () -> { })) {
            out.append(entry, entry.length);
            out.append(entry, entry.length);
        }
        assertThat(Files.exists(dir.resolve("capture.jsonl.1"))).isTrue();
        assertThat(Files.getPosixFilePermissions(file)).doesNotContain(PosixFilePermission.GROUP_READ,
                PosixFilePermission.OTHERS_READ);
    }

    @Test
    void aSymbolicLinkAtThePathIsRefusedAndItsTargetUntouched() throws IOException {
        Path target = dir.resolve("precious");
        Files.writeString(target, "keep me");
        Path link = Files.createSymbolicLink(dir.resolve("capture.jsonl"), target);
        assertThatThrownBy(() -> new RotatingFile(link, 1024, 2, "header\n", () -> { }))
                .isInstanceOf(IOException.class).hasMessageContaining("is a symbolic link");
        assertThat(Files.readString(target)).isEqualTo("keep me");
    }

    @Test
    void theSystemsOwnLinksStillServe() throws IOException {
        Path stdout = Path.of("/dev/stdout");
        assertThat(Files.isSymbolicLink(stdout)).as("this test needs /dev/stdout to be a link, as on Linux").isTrue();
        try (RotatingFile out = new RotatingFile(stdout, 1024, 2, "", () -> { })) {
            out.append(new byte[0], 0);
        }
        assertThat(Set.of()).isEmpty();
    }
}
