package dev.sluice.proxy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The process's open-file limit, as Linux reports it. */
final class OpenFiles {

    private OpenFiles() {
    }

    /** The soft limit on open files, or -1 when it cannot be read (not Linux, or unlimited). */
    static long softLimit() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/limits"))) {
                if (line.startsWith("Max open files")) {
                    String[] fields = line.substring("Max open files".length()).trim().split("\\s+");
                    return fields[0].equals("unlimited") ? -1 : Long.parseLong(fields[0]);
                }
            }
        } catch (IOException | RuntimeException e) {
            return -1;
        }
        return -1;
    }
}
