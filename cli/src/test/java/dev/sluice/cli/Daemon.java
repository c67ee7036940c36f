package dev.sluice.cli;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;

/**
 * A long-running child process (a proxy JVM, haproxy) whose output goes to files in its folder;
 * closing it sends SIGTERM, waits, then kills what is left.
 */
final class Daemon implements AutoCloseable {

    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);

    private final String name;
    private final Process process;
    private final Path out;
    private final Path err;

    private Daemon(String name, Process process, Path out, Path err) {
        this.name = name;
        this.process = process;
        this.out = out;
        this.err = err;
    }

    static Daemon start(String name, Path folder, List<String> command) throws IOException {
        Files.createDirectories(folder);
        Path out = folder.resolve(name + ".out");
        Path err = folder.resolve(name + ".err");
        Process process = new ProcessBuilder(command).directory(folder.toFile()).redirectOutput(out.toFile())
                .redirectError(err.toFile()).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
        return new Daemon(name, process, out, err);
    }

    /** The first group of the first stdout line matching {@code pattern}, once it is there. */
    String await(Pattern pattern, Duration timeout) {
        return Awaitility.await(name + " prints " + pattern).atMost(timeout).pollInterval(Duration.ofMillis(100))
                .until(() -> {
                    if (!process.isAlive()) {
                        throw new AssertionError(name + " exited with " + process.exitValue() + "\n" + output());
                    }
                    return find(pattern);
                }, Optional::isPresent).orElseThrow();
    }

    private Optional<String> find(Pattern pattern) throws IOException {
        Matcher m = pattern.matcher(Files.readString(out, StandardCharsets.UTF_8));
        return m.find() ? Optional.of(m.group(1)) : Optional.empty();
    }

    boolean alive() {
        return process.isAlive();
    }

    /** What it printed, for failure messages. */
    String output() {
        try {
            return "--- " + name + " stdout ---\n" + Files.readString(out) + "\n--- " + name + " stderr ---\n"
                    + Files.readString(err);
        } catch (IOException e) {
            return name + ": output unreadable: " + e;
        }
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }
}
