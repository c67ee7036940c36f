package dev.sluice.testkit;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.lang.ProcessBuilder.Redirect;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One mariadbd child process: started, watched until it says it is ready, stopped with SIGTERM or
 * killed with SIGKILL. mariadbd is our direct child (no mariadbd-safe), so {@link Process#pid()}
 * is the server's pid.
 */
final class ServerProcess {

    /** What a server that failed to start reported, when it is worth another try. */
    enum StartResult { READY, PORT_IN_USE }

    private static final String READY_MARK = ": ready for connections.";
    private static final Duration POLL = Duration.ofMillis(25);
    private static final Duration KILL_WAIT = Duration.ofSeconds(30);
    private static final int LOG_TAIL_CHARS = 4000;
    private static final System.Logger LOG = System.getLogger(ServerProcess.class.getName());

    private final String name;
    private final ServerFolder folder;
    /** Volatile so the JVM shutdown hook can kill without waiting for a start in progress. */
    private volatile Process process;

    ServerProcess(String name, ServerFolder folder) {
        this.name = name;
        this.folder = folder;
    }

    /** Starts mariadbd and waits for "ready for connections", the process's exit, or the timeout. */
    synchronized StartResult start(List<String> command, Duration timeout) {
        if (isAlive()) {
            throw new IllegalStateException(name + ": mariadbd is already running (pid " + process.pid() + ")");
        }
        long logOffset;
        Process started;
        try {
            logOffset = Files.exists(folder.log()) ? Files.size(folder.log()) : 0;
            started = new ProcessBuilder(command)
                    .directory(folder.root().toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(Redirect.appendTo(folder.log().toFile()))
                    .start();
        } catch (IOException e) {
            throw new MariaDbException(name + ": cannot run " + command.get(0), e);
        }
        process = started;
        long deadline = System.nanoTime() + timeout.toNanos();
        try {
            while (true) {
                boolean exited = started.waitFor(POLL.toMillis(), TimeUnit.MILLISECONDS);
                String output = ServerFolder.tail(folder.log(), logOffset, Integer.MAX_VALUE);
                if (output.contains(READY_MARK)) {
                    return StartResult.READY;
                }
                if (exited) {
                    process = null;
                    if (output.contains("Address already in use")) {
                        return StartResult.PORT_IN_USE;
                    }
                    throw new MariaDbException(name + ": mariadbd exited with code " + started.exitValue()
                            + " while starting; its log " + folder.log() + " ends with:\n" + lastChars(output));
                }
                if (System.nanoTime() > deadline) {
                    forceKill(started);
                    process = null;
                    throw new MariaDbException(name + ": mariadbd did not report ready within " + timeout
                            + "; its log " + folder.log() + " ends with:\n" + lastChars(output));
                }
            }
        } catch (InterruptedException e) {
            forceKill(started);
            process = null;
            Thread.currentThread().interrupt();
            throw new MariaDbException(name + ": interrupted while mariadbd was starting", e);
        }
    }

    boolean isAlive() {
        Process current = process;
        return current != null && current.isAlive();
    }

    long pid() {
        Process current = process;
        if (current == null || !current.isAlive()) {
            throw new IllegalStateException(name + ": mariadbd is not running");
        }
        return current.pid();
    }

    /** SIGTERM, so InnoDB and the binlog shut down cleanly; SIGKILL if that takes too long. */
    synchronized void stop(Duration timeout) {
        Process current = process;
        if (current == null) {
            return;
        }
        try {
            current.destroy();
            if (!current.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                LOG.log(Level.WARNING, "{0}: mariadbd did not stop within {1} after SIGTERM; sending SIGKILL",
                        name, timeout);
                forceKill(current);
            }
        } catch (InterruptedException e) {
            forceKill(current);
            Thread.currentThread().interrupt();
        } finally {
            process = null;
        }
    }

    /** SIGKILL, as a crash would: no shutdown, the next start runs crash recovery. */
    synchronized void kill() {
        Process current = process;
        if (current == null) {
            return;
        }
        forceKill(current);
        process = null;
    }

    /** For the JVM shutdown hook: kills without taking the lock a starting thread may hold. */
    void killNow() {
        Process current = process;
        if (current != null) {
            forceKill(current);
        }
    }

    private void forceKill(Process target) {
        target.destroyForcibly();
        try {
            if (!target.waitFor(KILL_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new MariaDbException(name + ": mariadbd (pid " + target.pid()
                        + ") still alive " + KILL_WAIT + " after SIGKILL");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static String lastChars(String output) {
        return output.length() <= LOG_TAIL_CHARS ? output : "..." + output.substring(output.length() - LOG_TAIL_CHARS);
    }
}
