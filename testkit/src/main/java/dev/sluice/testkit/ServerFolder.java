package dev.sluice.testkit;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Where one server keeps its files, all under one temporary folder of its cluster. */
record ServerFolder(Path root) {

    /** sun_path of a unix socket holds 108 bytes including the terminating NUL. */
    private static final int MAX_SOCKET_PATH = 107;

    static ServerFolder create(Path root) throws IOException {
        ServerFolder folder = new ServerFolder(root);
        Files.createDirectories(folder.dataDir());
        Files.createDirectories(folder.tmpDir());
        int socketLength = folder.socket().toString().getBytes(StandardCharsets.UTF_8).length;
        if (socketLength > MAX_SOCKET_PATH) {
            throw new MariaDbException("unix socket path: " + folder.socket() + " is " + socketLength
                    + " bytes (expected: <= " + MAX_SOCKET_PATH + "); use a shorter java.io.tmpdir");
        }
        return folder;
    }

    Path dataDir() {
        return root.resolve("data");
    }

    Path tmpDir() {
        return root.resolve("tmp");
    }

    Path socket() {
        return root.resolve("mariadbd.sock");
    }

    Path pidFile() {
        return root.resolve("mariadbd.pid");
    }

    /** mariadbd's error log (its stdout and stderr), appended to across restarts. */
    Path log() {
        return root.resolve("mariadbd.log");
    }

    Path installLog() {
        return root.resolve("install.log");
    }

    /** The last {@code maxChars} characters of {@code file} from {@code offset}, "" when unreadable. */
    static String tail(Path file, long offset, int maxChars) {
        try {
            byte[] bytes = Files.readAllBytes(file);
            int from = (int) Math.min(Math.max(offset, 0), bytes.length);
            String text = new String(bytes, from, bytes.length - from, StandardCharsets.UTF_8);
            return text.length() <= maxChars ? text : "..." + text.substring(text.length() - maxChars);
        } catch (IOException e) {
            return "";
        }
    }
}
