package dev.sluice.slap;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.charset.Charset;

/** {@code --pre-system} and {@code --post-system}: a shell command, its output copied to ours. */
final class SystemCommand {

    private SystemCommand() {
    }

    /** Runs {@code command} with {@code sh -c}; returns its exit status. */
    static int run(String command, PrintWriter out) throws InterruptedException {
        ProcessBuilder builder = new ProcessBuilder("sh", "-c", command).redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.INHERIT);
        try {
            Process process = builder.start();
            try (InputStream output = process.getInputStream()) {
                byte[] buffer = new byte[8192];
                int n;
                while ((n = output.read(buffer)) > 0) {
                    out.print(new String(buffer, 0, n, Charset.defaultCharset()));
                }
            }
            out.flush();
            return process.waitFor();
        } catch (IOException e) {
            throw new SlapException("Cannot run '" + command + "': " + e.getMessage(), 1, e);
        }
    }
}
