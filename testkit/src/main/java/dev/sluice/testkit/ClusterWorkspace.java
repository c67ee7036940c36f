package dev.sluice.testkit;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The temporary folder of one cluster: a sub-folder per server plus the TLS files, under
 * {@code java.io.tmpdir/sluice-testkit-USER/clusters}. An {@code owner} file names the JVM that made it,
 * so a later run can kill the servers and delete the folder a killed JVM left behind.
 */
final class ClusterWorkspace {

    static final Path CLUSTERS = MariaDbBinaries.CACHE_ROOT.resolve("clusters");
    private static final String OWNER_FILE = "owner";
    /** A folder without an owner file this young may be one another JVM is creating right now. */
    private static final Duration OWNERLESS_GRACE = Duration.ofMinutes(10);
    private static final System.Logger LOG = System.getLogger(ClusterWorkspace.class.getName());

    private final Path root;

    private ClusterWorkspace(Path root) {
        this.root = root;
    }

    static ClusterWorkspace create() {
        try {
            Files.createDirectories(CLUSTERS);
            reapOrphans();
            // Short names: the unix socket path below must stay under 108 bytes.
            Path root = Files.createTempDirectory(CLUSTERS, "c");
            Files.writeString(root.resolve(OWNER_FILE), ownerId(ProcessHandle.current()), StandardCharsets.UTF_8);
            return new ClusterWorkspace(root);
        } catch (IOException e) {
            throw new MariaDbException("cannot create a cluster folder under " + CLUSTERS, e);
        }
    }

    Path root() {
        return root;
    }

    ServerFolder serverFolder(String serverName) {
        try {
            return ServerFolder.create(root.resolve(serverName));
        } catch (IOException e) {
            throw new MariaDbException("cannot create the folder of " + serverName + " in " + root, e);
        }
    }

    Path tlsDir() {
        return root.resolve("tls");
    }

    /** Deletes the folder; failures are logged, not thrown, so closing always finishes. */
    void delete() {
        try {
            Folders.deleteTree(root);
        } catch (IOException e) {
            LOG.log(Level.WARNING, "cannot delete cluster folder " + root, e);
        }
    }

    /** Kills the servers of clusters whose JVM is gone, and deletes their folders. */
    private static void reapOrphans() throws IOException {
        try (DirectoryStream<Path> clusters = Files.newDirectoryStream(CLUSTERS)) {
            for (Path cluster : clusters) {
                if (isOrphan(cluster)) {
                    reap(cluster);
                }
            }
        }
    }

    private static boolean isOrphan(Path cluster) throws IOException {
        Path owner = cluster.resolve(OWNER_FILE);
        if (!Files.exists(owner)) {
            Instant modified = Files.getLastModifiedTime(cluster).toInstant();
            return modified.isBefore(Instant.now().minus(OWNERLESS_GRACE));
        }
        String id = Files.readString(owner, StandardCharsets.UTF_8).strip();
        long pid;
        try {
            pid = Long.parseLong(id.split(" ")[0]);
        } catch (NumberFormatException e) {
            return false; // being written by its owner right now
        }
        Optional<ProcessHandle> process = ProcessHandle.of(pid);
        return process.isEmpty() || !ownerId(process.get()).equals(id);
    }

    private static void reap(Path cluster) {
        LOG.log(Level.WARNING, "Removing cluster folder {0} left by a JVM that is gone", cluster);
        try (DirectoryStream<Path> servers = Files.newDirectoryStream(cluster, Files::isDirectory)) {
            for (Path server : servers) {
                killLeftover(new ServerFolder(server));
            }
            Folders.deleteTree(cluster);
        } catch (IOException | RuntimeException e) {
            LOG.log(Level.WARNING, "cannot fully remove orphaned cluster folder " + cluster, e);
        }
    }

    /** Kills the mariadbd of a pid file, but only a process whose command line names that folder. */
    private static void killLeftover(ServerFolder server) throws IOException {
        if (!Files.exists(server.pidFile())) {
            return;
        }
        long pid = Long.parseLong(Files.readString(server.pidFile(), StandardCharsets.US_ASCII).strip());
        ProcessHandle.of(pid)
                .filter(process -> process.info().commandLine()
                        .map(line -> line.contains(server.dataDir().toString())).orElse(false))
                .ifPresent(process -> {
                    LOG.log(Level.WARNING, "Killing leftover mariadbd pid {0,number,#} of {1}", pid, server.root());
                    process.destroyForcibly();
                    process.onExit().orTimeout(30, TimeUnit.SECONDS).join();
                });
    }

    /** pid plus start time, so a recycled pid is not mistaken for the owner. */
    private static String ownerId(ProcessHandle process) {
        return process.pid() + " " + process.info().startInstant().map(Instant::toString).orElse("?");
    }
}
