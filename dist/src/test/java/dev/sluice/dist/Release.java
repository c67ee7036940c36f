package dev.sluice.dist;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The archives {@code mvn package} made in this module, unpacked into an empty folder of the
 * test's own and run from there as a user would: {@code bin/sluice} in a child process whose
 * environment has a Java runtime and the system's tools on PATH, and nothing of the build (no
 * Maven, no source tree, no JAVA_HOME unless a test gives one).
 */
final class Release {

    static final String VERSION = property("sluice.version");
    private static final Path BUILD_DIR = Path.of(property("sluice.dist.dir"));
    /** The Java that runs this test: its bin/ is the only Java on the children's PATH. */
    static final Path JAVA_HOME = Path.of(System.getProperty("java.home"));

    private final Path home;

    private Release(Path home) {
        this.home = home;
    }

    /** Unpacks sluice-VERSION.tar.gz into {@code folder}, and the demo part over it when asked. */
    static Release unpack(Path folder, boolean withDemoPart) throws Exception {
        Files.createDirectories(folder);
        untar(archive("sluice-" + VERSION + ".tar.gz"), folder);
        if (withDemoPart) {
            untar(archive("sluice-demo-" + VERSION + ".tar.gz"), folder);
        }
        return new Release(folder.resolve("sluice-" + VERSION));
    }

    /** The unpacked release folder, sluice-VERSION. */
    Path home() {
        return home;
    }

    static Path archive(String name) {
        Path archive = BUILD_DIR.resolve(name);
        if (!Files.isRegularFile(archive)) {
            throw new AssertionError(archive + " is missing: the dist ITs run after `mvn package` made it");
        }
        return archive;
    }

    private static void untar(Path archive, Path folder) throws Exception {
        Process tar = new ProcessBuilder("tar", "-xzf", archive.toString(), "-C", folder.toString())
                .redirectErrorStream(true).start();
        String output = new String(tar.getInputStream().readAllBytes());
        if (!tar.waitFor(60, TimeUnit.SECONDS) || tar.exitValue() != 0) {
            throw new AssertionError("tar -xzf " + archive + " failed: " + output);
        }
    }

    /** A machine's environment with a Java runtime on PATH: PATH is its bin/, /usr/bin and /bin. */
    static Map<String, String> plainEnvironment(Path home) {
        Map<String, String> env = new HashMap<>();
        env.put("PATH", JAVA_HOME.resolve("bin") + File.pathSeparator + "/usr/bin" + File.pathSeparator + "/bin");
        // A home of its own: no ~/.my.cnf or other user settings from whoever runs the build.
        env.put("HOME", home.toString());
        env.put("LANG", "C.UTF-8");
        return env;
    }

    /** Runs bin/sluice with {@code args} to its end, within {@code timeout}. */
    Run run(Map<String, String> env, Duration timeout, String... args) throws Exception {
        Started started = start(env, args);
        try {
            if (!started.process().waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new AssertionError("bin/sluice " + String.join(" ", args) + " did not finish within " + timeout
                        + "\n" + started.output());
            }
            return started.output();
        } finally {
            started.kill();
        }
    }

    /** Starts bin/sluice with {@code args}, its output going to files next to the release. */
    Started start(Map<String, String> env, String... args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(home.resolve("bin/sluice").toString());
        command.addAll(List.of(args));
        Path out = Files.createTempFile(home.getParent(), "stdout", ".txt");
        Path err = Files.createTempFile(home.getParent(), "stderr", ".txt");
        ProcessBuilder builder = new ProcessBuilder(command).directory(home.toFile())
                .redirectOutput(out.toFile()).redirectError(err.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        builder.environment().clear();
        builder.environment().putAll(env);
        return new Started(command, builder.start(), out, err);
    }

    /** A bin/sluice process and where its output goes. */
    record Started(List<String> command, Process process, Path out, Path err) {

        Run output() throws IOException {
            return new Run(command, process.isAlive() ? -1 : process.exitValue(), Files.readString(out),
                    Files.readString(err));
        }

        /** SIGTERM, as systemd or Ctrl-C stop the proxy; returns its output once it has exited. */
        Run stop(Duration timeout) throws Exception {
            process.destroy();
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                kill();
                throw new AssertionError("bin/sluice did not stop within " + timeout + " of SIGTERM\n" + output());
            }
            return output();
        }

        void kill() throws InterruptedException {
            if (process.isAlive()) {
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    /** What a finished (or still running, exit -1) bin/sluice printed. */
    record Run(List<String> command, int exit, String out, String err) {

        /** Lines that only an exception prints: its name with a colon, or a stack frame. */
        boolean hasStackTrace() {
            return (out + err).lines().anyMatch(line -> line.startsWith("\tat ") || line.matches(".*\\w+(Exception|Error): .*")
                    || line.startsWith("Caused by: "));
        }

        @Override
        public String toString() {
            return String.join(" ", command) + "\nexit " + exit + "\n--- stdout ---\n" + out + "--- stderr ---\n" + err;
        }
    }

    private static String property(String name) {
        String value = System.getProperty(name);
        if (value == null || value.isEmpty()) {
            throw new IllegalStateException("system property " + name + " is not set: run the dist ITs through Maven"
                    + " (failsafe sets it)");
        }
        return value;
    }
}
