package dev.sluice.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** No mariadbd outlives its JVM for long: the shutdown hook, and else the next cluster's start, end it. */
@Timeout(value = 150, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class LeftoverServersIT {

    private static final long CHILD_TIMEOUT_SECONDS = 90;

    private final List<Process> children = new ArrayList<>();

    @AfterEach
    void killChildren() throws InterruptedException {
        for (Process child : children) {
            child.destroyForcibly();
            child.waitFor(CHILD_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
    }

    @Test
    void aJvmThatExitsWithoutClosingStopsItsServersAndDeletesTheFolder() throws Exception {
        Child child = startChild("exit");

        assertThat(child.process.waitFor(CHILD_TIMEOUT_SECONDS, TimeUnit.SECONDS)).as("child JVM exited").isTrue();

        assertThat(ProcessHandle.of(child.mariadbdPid).filter(ProcessHandle::isAlive))
                .as("mariadbd of the exited JVM").isEmpty();
        assertThat(child.folder).doesNotExist();
    }

    @Test
    void serversOfAKilledJvmAreRemovedWhenTheNextClusterStarts() throws Exception {
        Child child = startChild("wait");
        child.process.destroyForcibly(); // SIGKILL: no shutdown hook runs
        assertThat(child.process.waitFor(CHILD_TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(ProcessHandle.of(child.mariadbdPid).filter(ProcessHandle::isAlive))
                .as("orphaned mariadbd before the next start").isPresent();

        ClusterWorkspace.create().delete(); // what every MariaDbCluster.start does first

        assertThat(ProcessHandle.of(child.mariadbdPid).filter(ProcessHandle::isAlive))
                .as("orphaned mariadbd after the next start").isEmpty();
        assertThat(child.folder).doesNotExist();
    }

    private record Child(Process process, Path folder, long mariadbdPid) {
    }

    private Child startChild(String mode) throws IOException, InterruptedException {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process process = new ProcessBuilder(java.toString(), "-cp", System.getProperty("java.class.path"),
                ClusterChild.class.getName(), mode)
                .redirectErrorStream(true)
                .start();
        children.add(process);
        List<String> output = new ArrayList<>();
        Path folder = null;
        Long pid = null;
        BufferedReader reader = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        while (folder == null || pid == null) {
            String line = reader.readLine();
            if (line == null) {
                break;
            }
            output.add(line);
            if (line.startsWith("FOLDER ")) {
                folder = Path.of(line.substring("FOLDER ".length()));
            } else if (line.startsWith("PID ")) {
                pid = Long.parseLong(line.substring("PID ".length()));
            }
        }
        if (folder == null || pid == null) {
            process.destroyForcibly();
            process.waitFor(CHILD_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            throw new AssertionError("child JVM did not report its cluster; output:\n" + String.join("\n", output));
        }
        // Keep draining so the child never blocks on a full pipe while it shuts down.
        Thread.ofVirtual().start(() -> reader.lines().forEach(line -> { }));
        return new Child(process, folder, pid);
    }
}
