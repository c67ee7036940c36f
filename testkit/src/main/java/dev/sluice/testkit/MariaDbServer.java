package dev.sluice.testkit;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One real mariadbd of a {@link MariaDbCluster}, on 127.0.0.1 and a port of its own.
 *
 * <p>Status and replica helpers go through one long-lived admin connection and use only SHOW and
 * replication statements, so polling them does not change Com_select or Connections (it does show
 * up in Questions and as one entry in Threads_connected).
 */
public final class MariaDbServer {

    static final String HOST = "127.0.0.1";
    private static final int PORT_ATTEMPTS = 5;
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(60);
    private static final System.Logger LOG = System.getLogger(MariaDbServer.class.getName());
    /** Every server of the bundle lacks the same plugins: say so once per JVM, not once per server. */
    private static final Set<String> REPORTED_MISSING_PLUGINS = ConcurrentHashMap.newKeySet();

    private final String name;
    private final Role role;
    private final int serverId;
    private final ClusterSpec spec;
    private final MariaDbBinaries binaries;
    private final DataDirTemplate template;
    private final ServerFolder folder;
    private final SelfSignedCertificate tls;
    private final ServerProcess process;
    private final AdminConnection admin;
    private volatile int port;
    /** read_only as a failover helper last set it, kept across restarts; null: as the role has it. */
    private volatile Boolean readOnly;

    MariaDbServer(String name, Role role, int serverId, ClusterSpec spec, MariaDbBinaries binaries,
            DataDirTemplate template, ServerFolder folder, SelfSignedCertificate tls) {
        this.name = name;
        this.role = role;
        this.serverId = serverId;
        this.spec = spec;
        this.binaries = binaries;
        this.template = template;
        this.folder = folder;
        this.tls = tls;
        this.process = new ServerProcess(name, folder);
        this.admin = new AdminConnection(name, this::port);
    }

    /** "primary", "replica1", "replica2", ... */
    public String name() {
        return name;
    }

    public Role role() {
        return role;
    }

    /** Always "127.0.0.1": the servers listen on loopback only. */
    public String host() {
        return HOST;
    }

    public int port() {
        return port;
    }

    /** The unix socket, on which the OS user logs in as a unix_socket administrator. */
    public Path socket() {
        return folder.socket();
    }

    public int serverId() {
        return serverId;
    }

    /** mariadbd's error log, kept across restarts of this server until the cluster closes. */
    public Path logFile() {
        return folder.log();
    }

    /**
     * A Connector/J URL that carries {@link TestUsers#APP_USER}'s credentials; {@code database} may
     * be null for none. For another account use {@link #jdbcUrl(String, String, String)} rather than
     * passing credentials next to this URL.
     */
    public String jdbcUrl(String database) {
        return jdbcUrl(database, TestUsers.APP_USER, TestUsers.APP_PASSWORD);
    }

    /** A Connector/J URL with the given credentials; {@code database} may be null for none. */
    public String jdbcUrl(String database, String user, String password) {
        return "jdbc:mysql://" + HOST + ":" + port + "/" + (database == null ? "" : database)
                + "?user=" + user + "&password=" + password;
    }

    /** A new TCP connection as {@link TestUsers#ADMIN_USER} (ALL PRIVILEGES WITH GRANT OPTION). */
    public Connection openAdmin() throws SQLException {
        return AdminConnection.open(port);
    }

    /** The numeric value of one global status variable, e.g. {@code Com_select}. */
    public long globalStatus(String variable) {
        String value = admin.showValue("SHOW GLOBAL STATUS LIKE '" + likeLiteral(variable) + "'");
        if (value == null) {
            throw new IllegalArgumentException(name + ": status variable '" + variable + "' does not exist");
        }
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + ": status variable '" + variable + "' is '" + value
                    + "' (expected: a number)", e);
        }
    }

    /** Every global status variable whose value is an integer, by its name as the server spells it. */
    public Map<String, Long> globalStatus() {
        return admin.numericStatus();
    }

    /** Whether the server has the storage engine enabled, e.g. "InnoDB", "BLACKHOLE". */
    public boolean hasEngine(String engine) {
        return admin.showRows("SHOW ENGINES").stream().anyMatch(row -> row.get("Engine").equalsIgnoreCase(engine)
                && ("YES".equals(row.get("Support")) || "DEFAULT".equals(row.get("Support"))));
    }

    /** Whether a plugin is loaded and active, e.g. "ed25519" (the bundle has none to load). */
    public boolean hasPlugin(String plugin) {
        return admin.showRows("SHOW PLUGINS").stream()
                .anyMatch(row -> row.get("Name").equalsIgnoreCase(plugin) && "ACTIVE".equals(row.get("Status")));
    }

    public boolean isRunning() {
        return process.isAlive();
    }

    /** The mariadbd process id; throws when the server is not running. */
    public long pid() {
        return process.pid();
    }

    /** Clean shutdown (SIGTERM); the data folder and port are kept for {@link #start()}. */
    public void stop() {
        admin.close();
        process.stop(STOP_TIMEOUT);
        LOG.log(Level.INFO, "{0}: stopped", name);
    }

    /** Starts a stopped or killed server again on the same data and port; replication resumes. */
    public void start() {
        if (isRunning()) {
            return;
        }
        admin.close();
        if (process.start(command(true), spec.startTimeout()) != ServerProcess.StartResult.READY) {
            throw new MariaDbException(name + ": port " + port + " is now taken by another process");
        }
        LOG.log(Level.INFO, "{0}: started again on {1}:{2,number,#}", name, HOST, port);
    }

    /** SIGKILL of mariadbd, like a crash; {@link #start()} brings it back through crash recovery. */
    public void kill() {
        admin.close();
        process.kill();
        LOG.log(Level.INFO, "{0}: killed", name);
    }

    /** STOP SLAVE SQL_THREAD: events keep arriving in the relay log but are not applied. */
    public void stopReplicaSqlThread() {
        admin.execute(requireReplica("stopReplicaSqlThread"), "STOP SLAVE SQL_THREAD");
    }

    public void startReplicaSqlThread() {
        admin.execute(requireReplica("startReplicaSqlThread"), "START SLAVE SQL_THREAD");
    }

    /** MASTER_DELAY: the replica applies each transaction {@code seconds} after the primary ran it. */
    public void setReplicaDelay(int seconds) {
        if (seconds < 0) {
            throw new IllegalArgumentException("replica delay: " + seconds + " s (expected: >= 0)");
        }
        admin.execute(requireReplica("setReplicaDelay"),
                "STOP SLAVE", "CHANGE MASTER TO MASTER_DELAY=" + seconds, "START SLAVE");
    }

    /**
     * SET GLOBAL read_only, as a DBA does before or after a switchover; a restart keeps it (the
     * role's own setting no longer applies).
     */
    public void setReadOnly(boolean on) {
        admin.execute(name + " setReadOnly", "SET GLOBAL read_only = " + (on ? "ON" : "OFF"));
        readOnly = on;
    }

    /**
     * Promotes this replica by hand, as a DBA or an orchestrator does: STOP SLAVE; RESET SLAVE ALL;
     * SET GLOBAL read_only = OFF. Wait for it to have the old primary's writes first ({@link #awaitApplied}).
     */
    public void promote() {
        admin.execute(name + " promote", "STOP SLAVE", "RESET SLAVE ALL", "SET GLOBAL read_only = OFF");
        readOnly = false;
    }

    /**
     * Points this server at {@code source} and replicates from it by GTID (CHANGE MASTER TO ...
     * MASTER_USE_GTID=current_pos: a demoted primary's own transactions are in gtid_binlog_pos, not
     * gtid_slave_pos, and current_pos counts both), read_only on.
     */
    public void replicateFrom(MariaDbServer source) {
        admin.execute(name + " replicateFrom " + source.name(), "STOP SLAVE", "SET GLOBAL read_only = ON",
                ServerSetup.changeMasterSql(source.port()).replace("slave_pos", "current_pos"), "START SLAVE");
        readOnly = true;
    }

    /** Waits until this server has applied every transaction {@code source} has in its binlog now. */
    public void awaitApplied(MariaDbServer source, Duration timeout) {
        GtidPosition target = source.gtidPosition("gtid_binlog_pos");
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!gtidPosition("gtid_current_pos").includes(target)) {
            if (System.nanoTime() - deadline > 0) {
                throw new MariaDbException(name + " has not applied " + source.name() + "'s gtid_binlog_pos "
                        + target.lastSeqByDomain() + " within " + timeout + " (it is at "
                        + gtidPosition("gtid_current_pos").lastSeqByDomain() + ")");
            }
            java.util.concurrent.locks.LockSupport.parkNanos(java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(10));
        }
    }

    /** Seconds_Behind_Master, or null when the server does not know (a thread stopped, not connected). */
    public Long replicaLagSeconds() {
        String value = replicaStatus(requireReplica("replicaLagSeconds")).get("Seconds_Behind_Master");
        return value == null ? null : Long.valueOf(value);
    }

    @Override
    public String toString() {
        return name + " (" + role + ") " + HOST + ":" + port;
    }

    /** First start: copy the data template, take a free port, start, enable optional plugins. */
    void initialize() {
        long begin = System.nanoTime();
        template.copyTo(folder.dataDir());
        long copied = System.nanoTime();
        boolean ready = false;
        for (int attempt = 1; attempt <= PORT_ATTEMPTS && !ready; attempt++) {
            port = freePort();
            ready = process.start(command(false), spec.startTimeout()) == ServerProcess.StartResult.READY;
            if (!ready) {
                LOG.log(Level.INFO, "{0}: port {1,number,#} was taken before mariadbd bound it; trying another",
                        name, port);
            }
        }
        if (!ready) {
            throw new MariaDbException(name + ": no free port after " + PORT_ATTEMPTS + " attempts");
        }
        long started = System.nanoTime();
        try (Connection connection = openAdmin(); Statement statement = connection.createStatement()) {
            statement.execute("SET SESSION sql_log_bin = 0"); // local to each server, like the accounts
            enableOptionalPlugin(statement, "BLACKHOLE", "ha_blackhole");
            if (enableOptionalPlugin(statement, "ed25519", "auth_ed25519")) {
                for (String sql : ServerSetup.edUserStatements()) {
                    statement.execute(sql);
                }
            }
        } catch (SQLException e) {
            throw new MariaDbException(name + ": setting up plugins and accounts failed: " + e.getMessage(), e);
        }
        long maxConnections = Long.parseLong(admin.showValue("SHOW GLOBAL VARIABLES LIKE 'max_connections'"));
        if (maxConnections < spec.maxConnections()) {
            throw new MariaDbException(name + ": max_connections is " + maxConnections + ", requested "
                    + spec.maxConnections() + "; the open-file limit ("
                    + admin.showValue("SHOW GLOBAL VARIABLES LIKE 'open_files_limit'") + ") is too low for it");
        }
        LOG.log(Level.INFO, "{0}: ready on {1}:{2,number,#} (copy data {3} ms, start {4} ms, plugins and checks {5} ms)",
                name, HOST, port, millis(begin, copied), millis(copied, started), millis(started, System.nanoTime()));
    }

    /** Points this replica at the primary and starts replicating. */
    void startReplication(int primaryPort) {
        admin.execute(name, ServerSetup.changeMasterSql(primaryPort), "START SLAVE");
    }

    GtidPosition gtidPosition(String variable) {
        return GtidPosition.parse(admin.showValue("SHOW GLOBAL VARIABLES LIKE '" + variable + "'"));
    }

    Map<String, String> replicaStatus(String caller) {
        return admin.showRows("SHOW SLAVE STATUS").stream().findFirst()
                .orElseThrow(() -> new MariaDbException(caller + ": no replication is configured"));
    }

    void execute(String... statements) {
        admin.execute(name, statements);
    }

    /** For the JVM shutdown hook: SIGKILL without waiting for locks. */
    void killNow() {
        process.killNow();
    }

    /** Closes the helper connection, then shuts mariadbd down cleanly. */
    void close() {
        admin.close();
        process.stop(STOP_TIMEOUT);
    }

    private boolean enableOptionalPlugin(Statement statement, String plugin, String soname) {
        if (hasPlugin(plugin)) {
            return true;
        }
        try {
            statement.execute("INSTALL SONAME '" + soname + "'");
            return true;
        } catch (SQLException e) {
            if (REPORTED_MISSING_PLUGINS.add(plugin)) {
                // Debug only: the tests that need the plugin say so when they skip, and the demo's
                // users have no use for it.
                LOG.log(Level.DEBUG, "Plugin {0} is not available: {1}.so is not in {2} ({3})",
                        plugin, soname, ServerSetup.pluginDir(binaries), e.getMessage());
            }
            return false;
        }
    }

    private String requireReplica(String operation) {
        if (role != Role.REPLICA) {
            throw new IllegalStateException(operation + ": " + name + " is the " + role + ", not a replica");
        }
        return name + " " + operation;
    }

    private List<String> command(boolean restart) {
        List<String> command = new java.util.ArrayList<>(
                ServerSetup.serverCommand(binaries, folder, role, serverId, port, spec, tls, restart));
        if (readOnly != null) {
            command.removeIf(option -> option.startsWith("--read-only"));
            command.add("--read-only=" + (readOnly ? "ON" : "OFF"));
        }
        return command;
    }

    private static String likeLiteral(String variable) {
        if (!variable.matches("[A-Za-z0-9_]+")) {
            throw new IllegalArgumentException("status variable name: '" + variable
                    + "' (expected: letters, digits and _)");
        }
        return variable.replace("_", "\\_");
    }

    private static long millis(long fromNanos, long toNanos) {
        return (toNanos - fromNanos) / 1_000_000;
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new MariaDbException("cannot find a free port on 127.0.0.1", e);
        }
    }
}
