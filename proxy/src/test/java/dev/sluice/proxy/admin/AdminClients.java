package dev.sluice.proxy.admin;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/** What the admin tests talk to the admin ports with: an HTTP client, and the mariadb command-line client. */
final class AdminClients {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private AdminClients() {
    }

    static HttpResponse<String> get(InetSocketAddress admin, String path) throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + admin.getPort() + path))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** A GET with {@code Authorization: value}. */
    static HttpResponse<String> get(InetSocketAddress admin, String path, String authorization)
            throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + admin.getPort() + path))
                .header("Authorization", authorization).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    record Run(int exitCode, String stdout, String stderr) {
    }

    /** The mariadb client on PATH; the test is skipped, saying why, where it is not installed. */
    static Path mariadb() {
        Optional<Path> found = Optional.empty();
        String path = System.getenv("PATH");
        for (String dir : (path == null ? "" : path).split(File.pathSeparator)) {
            Path candidate = Path.of(dir, "mariadb");
            if (Files.isExecutable(candidate)) {
                found = Optional.of(candidate);
                break;
            }
        }
        assumeTrue(found.isPresent(), "the mariadb client is not on PATH; install Debian's mariadb-client to run this test");
        return found.get();
    }

    /** Runs {@code mariadb} against the admin port with {@code sql} (-e), within 30 s. */
    static Run cli(InetSocketAddress admin, String user, String password, String sql, String... extra)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(mariadb().toString(), "--no-defaults", "--protocol=TCP",
                "-h127.0.0.1", "-P" + admin.getPort(), "-u" + user, "-p" + password, "--skip-ssl", "--connect-timeout=10"));
        command.addAll(List.of(extra));
        command.addAll(List.of("-e", sql));
        Path out = Files.createTempFile("mariadb-out", ".txt");
        Path err = Files.createTempFile("mariadb-err", ".txt");
        try {
            Process process = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
                throw new AssertionError("mariadb did not finish within 30 s: " + command);
            }
            return new Run(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                    Files.readString(err, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }
}
