package dev.sluice.proxy.capture;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The capture file, appended to, and rotated by size as logrotate would: {@code FILE} becomes
 * {@code FILE.1}, {@code FILE.1} becomes {@code FILE.2}, and so on, keeping {@code maxFiles} files
 * in all; the oldest goes. A file that is not a regular file ({@code /dev/stdout}, a FIFO) is
 * never rotated. Writer thread only.
 */
final class RotatingFile implements AutoCloseable {

    private static final int BUFFER = 64 * 1024;

    private final Path path;
    private final long maxSize;
    private final int maxFiles;
    private final byte[] header;
    private final Runnable onRotate;
    private final boolean rotatable;
    private OutputStream out;
    private long size;

    RotatingFile(Path path, long maxSize, int maxFiles, String header, Runnable onRotate) throws IOException {
        this.path = path;
        this.maxSize = maxSize;
        this.maxFiles = maxFiles;
        this.header = header.getBytes(StandardCharsets.UTF_8);
        this.onRotate = onRotate;
        Path parent = path.toAbsolutePath().getParent();
        if (parent != null && !Files.isDirectory(parent)) {
            Files.createDirectories(parent);
        }
        refuseSymbolicLink(path);
        this.rotatable = !Files.exists(path) || Files.isRegularFile(path);
        open();
    }

    /**
     * Captured statements are sensitive, and the proxy may run as a user who can write where others
     * can plant a link: a link at the capture path is refused (O_NOFOLLOW too, against one planted
     * between check and open), except the system's own under /dev and /proc (/dev/stdout).
     */
    private static void refuseSymbolicLink(Path path) throws IOException {
        Path absolute = path.toAbsolutePath().normalize();
        if (Files.isSymbolicLink(absolute) && !absolute.startsWith("/dev/") && !absolute.startsWith("/proc/")) {
            throw new IOException(path + " is a symbolic link (to " + Files.readSymbolicLink(absolute)
                    + "): capture writes only to a file it names itself");
        }
    }

    private void open() throws IOException {
        Set<OpenOption> options = new HashSet<>(List.of(StandardOpenOption.CREATE, StandardOpenOption.APPEND,
                StandardOpenOption.WRITE));
        if (rotatable) {
            options.add(LinkOption.NOFOLLOW_LINKS);
        }
        // Only the proxy's user may read what it captures: a new file is 0600 whatever the umask.
        FileAttribute<?>[] owner = path.getFileSystem().supportedFileAttributeViews().contains("posix")
                ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"))}
                : new FileAttribute<?>[0];
        out = new BufferedOutputStream(Channels.newOutputStream(Files.newByteChannel(path, options, owner)), BUFFER);
        size = rotatable ? Files.size(path) : 0;
        if (size == 0 && header.length > 0) {
            write(header, header.length);
        }
    }

    /** Appends one whole entry, rotating first when it would take the file past its size. */
    void append(byte[] bytes, int length) throws IOException {
        if (rotatable && maxSize > 0 && size > header.length && size + length > maxSize) {
            rotate();
        }
        write(bytes, length);
    }

    private void write(byte[] bytes, int length) throws IOException {
        out.write(bytes, 0, length);
        size += length;
    }

    void flush() throws IOException {
        out.flush();
    }

    private void rotate() throws IOException {
        out.close();
        if (maxFiles == 1) {
            Files.delete(path);
        } else {
            Files.deleteIfExists(numbered(maxFiles - 1));
            for (int i = maxFiles - 2; i >= 1; i--) {
                if (Files.exists(numbered(i))) {
                    Files.move(numbered(i), numbered(i + 1), StandardCopyOption.REPLACE_EXISTING);
                }
            }
            Files.move(path, numbered(1), StandardCopyOption.REPLACE_EXISTING);
        }
        onRotate.run();
        open();
    }

    private Path numbered(int n) {
        return path.resolveSibling(path.getFileName() + "." + n);
    }

    @Override
    public void close() throws IOException {
        out.close();
    }
}
