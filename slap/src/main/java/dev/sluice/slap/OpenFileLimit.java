package dev.sluice.slap;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The open-file check done before connecting: every client holds a socket, and running out of
 * descriptors half-way through a run gives errors that look like server trouble.
 *
 * @param soft the limit in force for this process (the JVM raises it to the hard limit at start)
 * @param hard the ceiling only root can raise; -1 for unlimited
 */
record OpenFileLimit(long soft, long hard) {

    /** Descriptors the JVM, its jars, the setup connection and the output files may hold. */
    static final int MARGIN = 64;

    static final Path PROC_LIMITS = Path.of("/proc/self/limits");

    /** The limit of this process, or null where /proc/self/limits does not exist. */
    static OpenFileLimit current() {
        try {
            return Files.exists(PROC_LIMITS) ? parse(Files.readAllLines(PROC_LIMITS)) : null;
        } catch (IOException e) {
            return null;
        }
    }

    /** Reads the "Max open files" line of /proc/self/limits. */
    static OpenFileLimit parse(List<String> lines) {
        for (String line : lines) {
            if (line.startsWith("Max open files")) {
                String[] fields = line.substring("Max open files".length()).trim().split("\\s+");
                if (fields.length >= 2) {
                    return new OpenFileLimit(value(fields[0]), value(fields[1]));
                }
            }
        }
        return null;
    }

    private static long value(String field) {
        return "unlimited".equals(field) ? -1 : Long.parseLong(field);
    }

    static long needed(int clients) {
        return (long) clients + MARGIN;
    }

    /** Fails with a message saying how to raise the limit when {@code clients} would not fit. */
    void check(int clients) {
        long needed = needed(clients);
        if (soft < 0 || soft >= needed) {
            return;
        }
        String raise = hard >= 0 && hard < needed
                ? "The hard limit is " + hard + ", so it must be raised first, as root: `ulimit -Hn " + needed
                        + "` in the starting shell, LimitNOFILE=" + needed + " for a systemd service, or a nofile"
                        + " line in /etc/security/limits.conf."
                : "Raise it in the shell that starts slap: `ulimit -n " + needed + "`.";
        throw new SlapException(clients + " clients need about " + needed + " open files (one socket each plus "
                + MARGIN + " for slap itself), but this process may open only " + soft + ". " + raise, 1);
    }
}
