package dev.sluice.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.stream.Stream;

/** File-system helpers for the testkit's temporary folders. */
final class Folders {

    private Folders() {
    }

    /** Deletes {@code root} and everything below it; a missing {@code root} is not an error. */
    static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.comparingInt(Path::getNameCount).reversed()).forEach(Folders::delete);
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    /** Copies the files and folders below {@code source} into {@code target}, creating it. */
    static void copyTree(Path source, Path target) throws IOException {
        try (Stream<Path> paths = Files.walk(source)) {
            for (Path path : (Iterable<Path>) paths::iterator) {
                Path copy = target.resolve(source.relativize(path).toString());
                if (Files.isDirectory(path)) {
                    Files.createDirectories(copy);
                } else {
                    Files.copy(path, copy, StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
    }

    /**
     * Deletes {@code NAME.partial-PID} staging folders next to {@code published}. Call it holding
     * the lock that guards building {@code published}: any staging folder then belongs to a build
     * whose JVM died.
     */
    static void deleteAbandonedStaging(Path published) throws IOException {
        String prefix = published.getFileName() + ".partial-";
        try (Stream<Path> siblings = Files.list(published.getParent())) {
            for (Path sibling : siblings.filter(p -> p.getFileName().toString().startsWith(prefix)).toList()) {
                deleteTree(sibling);
            }
        }
    }

    /** The staging folder this JVM builds {@code published} in before moving it into place. */
    static Path stagingFor(Path published) {
        return published.resolveSibling(published.getFileName() + ".partial-" + ProcessHandle.current().pid());
    }

    private static void delete(Path path) {
        try {
            Files.deleteIfExists(path);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
