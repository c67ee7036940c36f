package dev.sluice.testkit;

import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;

/**
 * A real MariaDB primary and its replicas (binlog + GTID replication), each mariadbd in its own
 * temporary folder on a free loopback port, with grants on and the {@link TestUsers} accounts.
 *
 * <pre>{@code
 * try (MariaDbCluster cluster = MariaDbCluster.start(ClusterSpec.defaults())) {
 *     cluster.servers().forEach(server -> System.out.println(server)); // primary (PRIMARY) 127.0.0.1:PORT
 * }
 * }</pre>
 *
 * {@link #close()} stops every server and deletes the folders; so does a JVM shutdown hook when the
 * cluster was never closed.
 */
public final class MariaDbCluster implements AutoCloseable {

    private static final Duration CATCH_UP_POLL = Duration.ofMillis(10);
    private static final System.Logger LOG = System.getLogger(MariaDbCluster.class.getName());

    private final ClusterSpec spec;
    private final ClusterWorkspace workspace;
    private final MariaDbServer primary;
    private final List<MariaDbServer> replicas;
    private final List<MariaDbServer> servers;
    private final Thread shutdownHook;
    private final AtomicBoolean closed = new AtomicBoolean();
    private volatile Duration startupTime;

    private MariaDbCluster(ClusterSpec spec, MariaDbBinaries binaries, ClusterWorkspace workspace) {
        this.spec = spec;
        this.workspace = workspace;
        SelfSignedCertificate tls = SelfSignedCertificate.generate(workspace.tlsDir());
        DataDirTemplate template = DataDirTemplate.shared(binaries);
        this.primary = new MariaDbServer("primary", Role.PRIMARY, 1, spec, binaries, template,
                workspace.serverFolder("primary"), tls);
        List<MariaDbServer> replicaList = new ArrayList<>();
        for (int i = 1; i <= spec.replicas(); i++) {
            String name = "replica" + i;
            replicaList.add(new MariaDbServer(name, Role.REPLICA, 1 + i, spec, binaries, template,
                    workspace.serverFolder(name), tls));
        }
        this.replicas = List.copyOf(replicaList);
        List<MariaDbServer> all = new ArrayList<>();
        all.add(primary);
        all.addAll(replicas);
        this.servers = List.copyOf(all);
        this.shutdownHook = new Thread(this::killForExit, "sluice-testkit-cluster-cleanup");
    }

    /**
     * Installs and starts the servers in parallel, sets up replication and waits until every
     * replica has the primary's state. Takes a few seconds (longer the first time on a machine,
     * when the binaries are unpacked).
     */
    public static MariaDbCluster start(ClusterSpec spec) {
        long started = System.nanoTime();
        MariaDbBinaries binaries = MariaDbBinaries.shared();
        ClusterWorkspace workspace = ClusterWorkspace.create();
        MariaDbCluster cluster;
        try {
            cluster = new MariaDbCluster(spec, binaries, workspace);
        } catch (RuntimeException e) {
            workspace.delete();
            throw e;
        }
        Runtime.getRuntime().addShutdownHook(cluster.shutdownHook);
        try {
            cluster.bootstrap();
        } catch (RuntimeException e) {
            cluster.close();
            throw e;
        }
        cluster.startupTime = Duration.ofNanos(System.nanoTime() - started);
        LOG.log(Level.INFO, "MariaDB {0} cluster started in {1} ms: {2}", binaries.version(),
                cluster.startupTime.toMillis(), cluster.servers);
        return cluster;
    }

    public MariaDbServer primary() {
        return primary;
    }

    /** replica1, replica2, ... in order. */
    public List<MariaDbServer> replicas() {
        return replicas;
    }

    /** The primary first, then the replicas. */
    public List<MariaDbServer> servers() {
        return servers;
    }

    public ClusterSpec spec() {
        return spec;
    }

    /** Wall time of {@link #start(ClusterSpec)}, from the call until replication was caught up. */
    public Duration startupTime() {
        return startupTime;
    }

    /**
     * Waits until every running replica has applied the primary's current gtid_binlog_pos.
     * Replicas that are stopped or killed are skipped.
     *
     * @throws MariaDbException naming the replica, its position and its replication errors
     */
    public void awaitReplicaCatchUp(Duration timeout) {
        if (!primary.isRunning()) {
            throw new IllegalStateException("awaitReplicaCatchUp: the primary is not running");
        }
        GtidPosition target = primary.gtidPosition("gtid_binlog_pos");
        long deadline = System.nanoTime() + timeout.toNanos();
        for (MariaDbServer replica : replicas) {
            while (replica.isRunning() && !replica.gtidPosition("gtid_slave_pos").includes(target)) {
                if (System.nanoTime() > deadline) {
                    throw new MariaDbException(replica.name() + " has not applied the primary's gtid_binlog_pos "
                            + target.lastSeqByDomain() + " within " + timeout + "; " + replicationState(replica));
                }
                LockSupport.parkNanos(CATCH_UP_POLL.toNanos());
            }
        }
    }

    /** Stops every server and deletes the cluster's folders. Safe to call more than once. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        long started = System.nanoTime();
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException e) {
            // The JVM is already shutting down; the hook does the same work.
        }
        try {
            inParallel(servers, MariaDbServer::close);
        } finally {
            workspace.delete();
        }
        LOG.log(Level.INFO, "MariaDB cluster stopped and its folder deleted in {0} ms",
                (System.nanoTime() - started) / 1_000_000);
    }

    /** The cluster's temporary folder: one sub-folder per server. */
    Path folder() {
        return workspace.root();
    }

    @Override
    public String toString() {
        return "MariaDbCluster" + servers;
    }

    private void bootstrap() {
        inParallel(servers, MariaDbServer::initialize);
        if (spec.createTestSchema()) {
            primary.execute("CREATE DATABASE IF NOT EXISTS `" + TestUsers.TEST_SCHEMA + "`");
        }
        for (MariaDbServer replica : replicas) {
            replica.startReplication(primary.port());
        }
        awaitReplicaCatchUp(spec.startTimeout());
    }

    private static String replicationState(MariaDbServer replica) {
        try {
            Map<String, String> status = replica.replicaStatus("awaitReplicaCatchUp");
            return "gtid_slave_pos=" + replica.gtidPosition("gtid_slave_pos").lastSeqByDomain()
                    + ", " + List.of("Slave_IO_Running", "Slave_SQL_Running", "Last_IO_Error", "Last_SQL_Error")
                            .stream().map(key -> key + "=" + status.get(key)).collect(Collectors.joining(", "));
        } catch (RuntimeException e) {
            return "replication state unavailable: " + e.getMessage();
        }
    }

    private void killForExit() {
        for (MariaDbServer server : servers) {
            server.killNow();
        }
        workspace.delete();
    }

    /** Runs the task for every server at once; rethrows the first failure with the others suppressed. */
    private static void inParallel(List<MariaDbServer> targets, ServerTask task) {
        ExecutorService executor = Executors.newFixedThreadPool(targets.size(), runnable -> {
            Thread thread = new Thread(runnable, "sluice-testkit-server");
            thread.setDaemon(true);
            return thread;
        });
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (MariaDbServer server : targets) {
                futures.add(executor.submit(() -> task.run(server)));
            }
            RuntimeException failure = null;
            for (Future<?> future : futures) {
                try {
                    future.get();
                } catch (ExecutionException e) {
                    RuntimeException cause = e.getCause() instanceof RuntimeException runtime
                            ? runtime : new MariaDbException(e.getCause().getMessage(), e.getCause());
                    if (failure == null) {
                        failure = cause;
                    } else {
                        failure.addSuppressed(cause);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new MariaDbException("interrupted while waiting for the servers", e);
                }
            }
            if (failure != null) {
                throw failure;
            }
        } finally {
            executor.shutdownNow();
        }
    }

    @FunctionalInterface
    private interface ServerTask {
        void run(MariaDbServer server);
    }
}
