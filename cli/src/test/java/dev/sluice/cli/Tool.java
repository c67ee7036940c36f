package dev.sluice.cli;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/** A command-line tool run as a child process with a time limit; a missing tool skips the test, saying so. */
final class Tool {

    private final Path executable;

    private Tool(Path executable) {
        this.executable = executable;
    }

    static Tool require(String name, String debianPackage) {
        Optional<Path> found = find(name);
        assumeTrue(found.isPresent(), () -> name + " is not on PATH (nor in /usr/sbin); install it (Debian: " + debianPackage
                + ") to run this test");
        return new Tool(found.get());
    }

    Path path() {
        return executable;
    }

    /** On PATH, or where Debian puts daemons such as haproxy (/usr/sbin, off a non-root user's PATH). */
    private static Optional<Path> find(String name) {
        String path = System.getenv().getOrDefault("PATH", "") + File.pathSeparator + "/usr/sbin" + File.pathSeparator + "/sbin";
        for (String folder : path.split(File.pathSeparator)) {
            Path candidate = Path.of(folder, name);
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    record Run(List<String> command, int exit, String out, String err) {
        @Override
        public String toString() {
            return String.join(" ", command) + "\nexit " + exit + "\n--- stdout ---\n" + out + "\n--- stderr ---\n" + err;
        }
    }

    Run run(Path workDir, Duration timeout, List<String> arguments) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(executable.toString());
        command.addAll(arguments);
        Path out = Files.createTempFile(workDir, "out", ".txt");
        Path err = Files.createTempFile(workDir, "err", ".txt");
        Process process = new ProcessBuilder(command).directory(workDir.toFile()).redirectOutput(out.toFile())
                .redirectError(err.toFile()).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
        boolean finished = process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        if (!finished) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        Run run = new Run(command, finished ? process.exitValue() : -1, Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
        if (!finished) {
            throw new AssertionError(executable.getFileName() + " did not finish within " + timeout + "\n" + run);
        }
        return run;
    }
}
