package dev.sluice.cli;

import java.io.File;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import javax.management.ObjectName;

/**
 * The proxy's class-data archive. A proxy the launchers start without one (bin/proxy-java-opts:
 * {@code -XX:+RecordDynamicDumpInfo -Dsluice.class_archive=FILE}) writes the classes it loaded to
 * FILE when it stops, if it served a client; the next proxy maps them from FILE
 * ({@code -XX:SharedArchiveFile}) instead of loading and parsing them again: metaspace 5 MB
 * instead of 16, a peak at 3000 clients 0-5 MB lower in session mode and up to 25 in split mode
 * (docs/performance.md). Written at shutdown, when no client waits on the
 * pause it takes, and after serving, so that it holds the classes serving needs; written to a
 * file of its own first, so that a proxy starting meanwhile never maps half an archive. The
 * JVM says as it exits that it "was attached by jcmd and dumped a dynamic archive".
 */
final class ClassArchive {

    static final String PROPERTY = "sluice.class_archive";
    /**
     * The proxy's own packages, loaded whole before the dump: what one routing mode loaded is then
     * archived for the other too (a split-mode proxy mapping an archive a session-mode one wrote
     * peaked as high as with none).
     */
    private static final List<String> PROXY_PACKAGES = List.of("dev/sluice/proxy/", "dev/sluice/protocol/",
            "dev/sluice/config/");

    private ClassArchive() {
    }

    /** Writes the archive if the launcher asked for one and {@code clientsServed} is above zero. */
    static void saveIfAsked(long clientsServed) {
        String target = System.getProperty(PROPERTY);
        if (target == null || target.isBlank() || clientsServed == 0) {
            return;
        }
        Path file = Path.of(target);
        Path partial = file.resolveSibling(file.getFileName() + "." + ProcessHandle.current().pid() + ".part");
        try {
            loadProxyClasses();
            ManagementFactory.getPlatformMBeanServer().invoke(new ObjectName("com.sun.management:type=DiagnosticCommand"),
                    "vmCds", new Object[] {new String[] {"dynamic_dump", partial.toString()}},
                    new String[] {String[].class.getName()});
            if (Files.size(partial) > 0) {
                Files.move(partial, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (Exception | LinkageError e) {
            // Without it the next proxy loads its classes as this one did; nothing else depends on it.
            System.err.println("sluice proxy: no class archive written to " + file + ": " + e);
        } finally {
            try {
                Files.deleteIfExists(partial);
            } catch (Exception ignored) {
                // a leftover .part file is never mapped
            }
        }
    }

    private static void loadProxyClasses() throws IOException {
        ClassLoader loader = ClassArchive.class.getClassLoader();
        for (String entry : System.getProperty("java.class.path", "").split(File.pathSeparator)) {
            if (!entry.endsWith(".jar")) {
                continue;
            }
            try (JarFile jar = new JarFile(entry)) {
                for (JarEntry file : (Iterable<JarEntry>) jar.stream()::iterator) {
                    String name = file.getName();
                    if (name.endsWith(".class") && !name.endsWith("module-info.class")
                            && PROXY_PACKAGES.stream().anyMatch(name::startsWith)) {
                        load(name.substring(0, name.length() - ".class".length()).replace('/', '.'), loader);
                    }
                }
            }
        }
    }

    private static void load(String className, ClassLoader loader) {
        try {
            Class.forName(className, false, loader);
        } catch (ClassNotFoundException | LinkageError e) {
            // a class whose dependencies are not on this classpath stays out of the archive
        }
    }
}
