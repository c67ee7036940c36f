package dev.sluice.proxy.clients;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A command-line client (mariadb, mariadb-slap, sysbench) run as a child process with a time
 * limit. A tool that is not installed makes the calling test SKIPPED with a message, never passed.
 */
final class ExternalTool {

    private final Path executable;

    private ExternalTool(Path executable) {
        this.executable = executable;
    }

    /** The tool found on PATH; when it is missing the test is aborted as skipped, saying why. */
    static ExternalTool require(String name) {
        Optional<Path> found = find(name);
        assumeTrue(found.isPresent(), () -> name + " is not on PATH (" + System.getenv("PATH")
                + "); install it (Debian: mariadb-client, sysbench) to run this test");
        return new ExternalTool(found.get());
    }

    static Optional<Path> find(String name) {
        String path = System.getenv("PATH");
        if (path == null) {
            return Optional.empty();
        }
        for (String dir : path.split(File.pathSeparator)) {
            Path candidate = Path.of(dir, name);
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    /** What a finished run left behind; {@link #toString()} is meant for failure messages. */
    record Run(List<String> command, int exitCode, String stdout, String stderr) {
        @Override
        public String toString() {
            return "command: " + String.join(" ", command) + "\nexit code: " + exitCode
                    + "\n--- stdout ---\n" + stdout + "\n--- stderr ---\n" + stderr;
        }
    }

    /**
     * Runs the tool with {@code arguments}, stdin from {@code input} (or nothing), and waits at most
     * {@code timeout}; a run that overstays is killed and fails the test with what it printed so far.
     */
    Run run(List<String> arguments, Path input, Duration timeout, Path workDir) throws IOException, InterruptedException {
        List<String> command = new java.util.ArrayList<>();
        command.add(executable.toString());
        command.addAll(arguments);
        Path out = Files.createTempFile(workDir, "stdout", ".txt");
        Path err = Files.createTempFile(workDir, "stderr", ".txt");
        ProcessBuilder builder = new ProcessBuilder(command).directory(workDir.toFile())
                .redirectOutput(out.toFile()).redirectError(err.toFile());
        builder.environment().remove("MYSQL_PWD");
        builder.environment().remove("MYSQL_HOST");
        builder.environment().remove("MYSQL_TCP_PORT");
        if (input != null) {
            builder.redirectInput(input.toFile());
        } else {
            builder.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        }
        Process process = builder.start();
        boolean finished = process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        if (!finished) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        // Lenient decoding: --raw output carries binary column values, compared as decoded on both sides.
        Run run = new Run(command, finished ? process.exitValue() : -1,
                new String(Files.readAllBytes(out), StandardCharsets.UTF_8),
                new String(Files.readAllBytes(err), StandardCharsets.UTF_8));
        if (!finished) {
            throw new AssertionError(executable.getFileName() + " did not finish within " + timeout + "\n" + run);
        }
        return run;
    }
}
