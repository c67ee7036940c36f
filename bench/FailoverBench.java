import dev.sluice.testkit.ClusterSpec;
import dev.sluice.testkit.MariaDbCluster;
import dev.sluice.testkit.MariaDbServer;
import dev.sluice.testkit.TestUsers;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a kill -9 of the primary, and of a replica, costs the clients of the split proxy: run by
 * bench/failover.sh with the CLI's classpath. Starts a MariaDB primary and two replicas (testkit),
 * then for each scenario a proxy of its own (`sluice proxy --config`, another process), sysbench
 * reading through it (another process, autocommit point and range selects, errors ignored and
 * counted), and here writers inserting (client, seq) rows one autocommit statement at a time and
 * readers, each outcome kept as the client saw it. The server is killed (SIGKILL), started again
 * after DOWN_MS, and once it takes work again the rows are held against what was acknowledged.
 * Each scenario runs with primary_wait as configured and with 0 (what the proxy did before it
 * waited), the baseline of the same run.
 *
 * <p>Usage: {@code java -cp CLASSPATH FailoverBench.java OUT_DIR} with the environment of
 * failover.sh (WRITERS, READERS, SB_THREADS, RUN_SECONDS, DOWN_MS, PRIMARY_WAIT, HEALTH_INTERVAL,
 * RECOVER_AFTER).
 */
public final class FailoverBench {

    private static final String H = "127.0.0.1";
    private static final Path OUT = Path.of(System.getProperty("out", "bench/out/failover"));

    record Outcome(long nanos, boolean write, int client, int seq, int port, int code, String message) {
    }

    record Row(String primaryWait, String killed, long downMs, long writePauseMs, long readPauseMs, long recoverMs,
               long writes, long reads, int clientErrors, int transactionErrors, String sysbench, int lost,
               int duplicated, String unknown, String rerun, String replayed) {
    }

    /** One run's proxy settings: primary_wait, and whether lost transactions are replayed. */
    record Setting(String primaryWait, boolean transactionReplay) {
        String label() {
            return primaryWait + (transactionReplay ? "+replay" : "");
        }
    }

    public static void main(String[] args) throws Exception {
        Path out = args.length > 0 ? Path.of(args[0]) : OUT;
        Files.createDirectories(out);
        int writers = env("WRITERS", 4);
        int readers = env("READERS", 2);
        int transactional = env("TX_WRITERS", 2);
        int sbThreads = env("SB_THREADS", 8);
        int runSeconds = env("RUN_SECONDS", 16);
        int downMs = env("DOWN_MS", 1000);
        String primaryWait = System.getenv().getOrDefault("PRIMARY_WAIT", "10s");
        String interval = System.getenv().getOrDefault("HEALTH_INTERVAL", "500ms");
        int recoverAfter = env("RECOVER_AFTER", 1);
        List<Row> rows = new ArrayList<>();
        try (MariaDbCluster cluster = MariaDbCluster.start(ClusterSpec.builder().replicas(2).build())) {
            MariaDbServer primary = cluster.primary();
            try (Connection c = primary.openAdmin(); Statement s = c.createStatement()) {
                s.execute("CREATE TABLE sluice_test.ha_writes (id BIGINT AUTO_INCREMENT PRIMARY KEY, client INT, seq INT,"
                        + " port INT)");
            }
            run(out, "sysbench-prepare.log", List.of("sysbench", "oltp_read_only", "--db-driver=mysql", "--mysql-ssl=off",
                    "--mysql-host=" + H, "--mysql-port=" + primary.port(), "--mysql-user=" + TestUsers.APP_USER,
                    "--mysql-password=" + TestUsers.APP_PASSWORD, "--mysql-db=sluice_test", "--tables=2",
                    "--table-size=10000", "prepare"), 120);
            cluster.awaitReplicaCatchUp(Duration.ofSeconds(60));
            System.err.printf("cluster: %s; %d writers and %d readers here, sysbench oltp_read_only --skip_trx at %d"
                            + " threads, %d writers of two-insert transactions; %d s per run, the server down %d ms;"
                            + " health interval %s, fail_after 2, recover_after %d%n", cluster.servers(), writers,
                    readers, sbThreads, transactional, runSeconds, downMs, interval, recoverAfter);
            for (String killed : List.of("primary", "replica1")) {
                List<Setting> settings = killed.equals("primary")
                        ? List.of(new Setting(primaryWait, true), new Setting(primaryWait, false), new Setting("0s", false))
                        : List.of(new Setting(primaryWait, false), new Setting("0s", false));
                for (Setting setting : settings) {
                    MariaDbServer victim = killed.equals("primary") ? primary : cluster.replicas().get(0);
                    String yaml = config(cluster, freePort(), freePort(), freePort(), setting, interval, recoverAfter);
                    rows.add(scenario(out, cluster, victim, yaml, setting.label(), new Load.Clients(writers, readers,
                            transactional), sbThreads, runSeconds, downMs));
                    try (Connection c = primary.openAdmin(); Statement s = c.createStatement()) {
                        s.execute("TRUNCATE TABLE sluice_test.ha_writes");
                    }
                    cluster.awaitReplicaCatchUp(Duration.ofSeconds(60));
                }
            }
        }
        print(rows);
    }

    private static Row scenario(Path out, MariaDbCluster cluster, MariaDbServer victim, String yaml, String wait,
                                Load.Clients clients, int sbThreads, int runSeconds, int downMs) throws Exception {
        String tag = victim.name() + "-wait" + wait;
        Path config = out.resolve("sluice-" + tag + ".yaml");
        Files.writeString(config, yaml);
        int port = Integer.parseInt(yaml.lines().findFirst().orElseThrow().replaceAll(".*:", ""));
        Process proxy = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                System.getProperty("java.class.path"), "dev.sluice.cli.Main", "proxy", "--config", config.toString())
                .redirectErrorStream(true).redirectOutput(out.resolve("proxy-" + tag + ".log").toFile()).start();
        try {
            awaitPort(port, 60);
            Process sysbench = new ProcessBuilder("sysbench", "oltp_read_only", "--db-driver=mysql", "--mysql-ssl=off",
                    "--mysql-host=" + H, "--mysql-port=" + port, "--mysql-user=" + TestUsers.APP_USER,
                    "--mysql-password=" + TestUsers.APP_PASSWORD, "--mysql-db=sluice_test", "--tables=2",
                    "--table-size=10000", "--skip_trx=on", "--threads=" + sbThreads, "--time=" + runSeconds,
                    "--mysql-ignore-errors=all", "--report-interval=1", "run")
                    .redirectErrorStream(true).redirectOutput(out.resolve("sysbench-" + tag + ".log").toFile()).start();
            Load load = new Load(port, clients).start();
            TimeUnit.SECONDS.sleep(3);
            long killed = System.nanoTime();
            victim.kill();
            TimeUnit.MILLISECONDS.sleep(downMs);
            victim.start();
            long back = System.nanoTime();
            boolean isPrimary = victim == cluster.primary();
            long recovered = load.awaitFirst(back, isPrimary, victim.port(), Duration.ofSeconds(30));
            sysbench.waitFor(runSeconds + 60L, TimeUnit.SECONDS);
            load.stop();
            Map<String, Integer> copies = new HashMap<>();
            try (Connection c = cluster.primary().openAdmin(); Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT client, seq FROM sluice_test.ha_writes")) {
                while (rs.next()) {
                    copies.merge(rs.getInt(1) + "-" + rs.getInt(2), 1, Integer::sum);
                }
            }
            int lost = (int) load.outcomes.stream().filter(o -> o.write() && o.code() == 0)
                    .filter(o -> !copies.containsKey(o.client() + "-" + o.seq())).count();
            int duplicated = (int) copies.values().stream().filter(n -> n > 1).count();
            long unknownRan = load.outcomes.stream().filter(o -> o.write() && o.code() == 1927)
                    .filter(o -> copies.containsKey(o.client() + "-" + o.seq())).count();
            String sb = Files.readString(out.resolve("sysbench-" + tag + ".log"));
            String metrics = metrics(yaml);
            return new Row(wait, victim.name(), (back - killed) / 1_000_000, load.pause(true, killed) / 1_000_000,
                    load.pause(false, killed) / 1_000_000, recovered < 0 ? -1 : (recovered - back) / 1_000_000,
                    load.count(true), load.count(false), load.errors(), load.transactionErrors(), field(sb, "ignored errors: *([0-9]+)") + " of "
                    + field(sb, "queries: *([0-9]+)"), lost, duplicated, unknownOutcomes(load) + "/" + unknownRan,
                    field(metrics, "sluice_writes_retried_total\\{reason=\"lost\",?\\} ([0-9]+)") + "/"
                    + field(metrics, "sluice_writes_retried_total\\{reason=\"read_only\",?\\} ([0-9]+)"),
                    field(metrics, "sluice_transactions_replayed_total(?:\\{\\})? ([0-9.]+)") + "/"
                    + field(metrics, "sluice_transaction_replays_failed_total(?:\\{\\})? ([0-9.]+)"));
        } finally {
            proxy.destroy();
            proxy.waitFor(30, TimeUnit.SECONDS);
        }
    }

    private static long unknownOutcomes(Load load) {
        return load.outcomes.stream().filter(o -> o.write() && o.code() == 1927).count();
    }

    /** The proxy's Prometheus text, from its admin HTTP port (the second port of the config). */
    private static String metrics(String yaml) throws Exception {
        String http = field(yaml, "http: \"([^\"]+)\"");
        java.net.http.HttpResponse<String> response = java.net.http.HttpClient.newHttpClient().send(
                java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://" + http + "/metrics")).build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
        return response.body();
    }

    private static String config(MariaDbCluster cluster, int port, int http, int sql, Setting setting, String interval,
                                 int recoverAfter) {
        StringBuilder yaml = new StringBuilder("listen: " + H + ":" + port + "\nusers:\n  - {name: " + TestUsers.APP_USER
                + ", password: " + TestUsers.APP_PASSWORD + "}\nbackends:\n");
        for (MariaDbServer server : cluster.servers()) {
            yaml.append("  - {name: ").append(server.name()).append(", address: \"").append(H).append(':')
                    .append(server.port()).append("\", role: ")
                    .append(server == cluster.primary() ? "primary" : "replica").append("}\n");
        }
        return yaml.append("routing: {mode: split, transaction_replay: ").append(setting.transactionReplay())
                .append("}\ntimeouts: {primary_wait: ").append(setting.primaryWait())
                .append("}\nhealth: {interval: ").append(interval).append(", fail_after: 2, recover_after: ")
                .append(recoverAfter).append("}\nadmin: {http: \"").append(H).append(':').append(http)
                .append("\", sql: \"").append(H).append(':').append(sql).append("\"}\n").toString();
    }

    /**
     * The writers, readers and transactional writers here: every outcome as the client saw it. A
     * transaction's two rows count as two acknowledged writes once its COMMIT is answered.
     */
    static final class Load {
        /** Client ids from here on run transactions; their failures are counted apart. */
        static final int FIRST_TRANSACTIONAL = 1000;
        static final int THINK_MS = 20;

        record Clients(int writers, int readers, int transactional) {
        }

        final ConcurrentLinkedQueue<Outcome> outcomes = new ConcurrentLinkedQueue<>();
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final ExecutorService threads;
        private final int port;
        private final Clients clients;

        Load(int port, Clients clients) {
            this.port = port;
            this.clients = clients;
            this.threads = Executors.newFixedThreadPool(clients.writers() + clients.readers() + clients.transactional());
        }

        Load start() {
            for (int i = 1; i <= clients.writers() + clients.readers(); i++) {
                int client = i;
                threads.submit(() -> run(client, client <= clients.writers()));
            }
            for (int i = 0; i < clients.transactional(); i++) {
                int client = FIRST_TRANSACTIONAL + i;
                threads.submit(() -> run(client, true));
            }
            return this;
        }

        /** BEGIN, two inserts (rows first and first + 1) each followed by think time, COMMIT: both rows or neither. */
        private void transaction(Connection connection, int client, int first) throws SQLException {
            connection.setAutoCommit(false);
            try (PreparedStatement insert = connection.prepareStatement(
                    "INSERT INTO ha_writes (client, seq, port) VALUES (?, ?, @@port)")) {
                for (int row = 0; row < 2; row++) {
                    insert.setInt(1, client);
                    insert.setInt(2, first + row);
                    insert.executeUpdate();
                    thinkTime();
                }
                connection.commit();
            } catch (SQLException e) {
                try {
                    connection.rollback();
                } catch (SQLException gone) {
                    // the connection is gone with the transaction
                }
                throw e;
            } finally {
                try {
                    connection.setAutoCommit(true);
                } catch (SQLException gone) {
                    // checked by the caller's isValid
                }
            }
        }

        /** An application's work between its statements: the transaction stays open meanwhile. */
        private static void thinkTime() {
            try {
                TimeUnit.MILLISECONDS.sleep(THINK_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        private void run(int client, boolean write) {
            Connection connection = null;
            int seq = 0;
            while (running.get()) {
                seq++;
                try {
                    if (connection == null) {
                        connection = DriverManager.getConnection("jdbc:mysql://" + H + ":" + port
                                + "/sluice_test?sslMode=DISABLED&connectTimeout=5000&socketTimeout=60000",
                                TestUsers.APP_USER, TestUsers.APP_PASSWORD);
                    }
                    int answered = 0;
                    if (client >= FIRST_TRANSACTIONAL) {
                        transaction(connection, client, 2 * seq);
                        outcomes.add(new Outcome(System.nanoTime(), true, client, 2 * seq, 0, 0, null));
                        outcomes.add(new Outcome(System.nanoTime(), true, client, 2 * seq + 1, 0, 0, null));
                        continue;
                    } else if (write) {
                        try (PreparedStatement insert = connection.prepareStatement(
                                "INSERT INTO ha_writes (client, seq, port) VALUES (?, ?, @@port)")) {
                            insert.setInt(1, client);
                            insert.setInt(2, seq);
                            insert.executeUpdate();
                        }
                    } else {
                        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery("SELECT @@port")) {
                            rs.next();
                            answered = rs.getInt(1);
                        }
                    }
                    outcomes.add(new Outcome(System.nanoTime(), write, client, seq, answered, 0, null));
                } catch (SQLException e) {
                    outcomes.add(new Outcome(System.nanoTime(), write, client, client >= FIRST_TRANSACTIONAL ? 2 * seq : seq,
                            0, e.getErrorCode(), e.getMessage()));
                    try {
                        if (connection != null && !connection.isValid(2)) {
                            connection.close();
                            connection = null;
                        }
                    } catch (SQLException closed) {
                        connection = null;
                    }
                }
            }
            try {
                if (connection != null) {
                    connection.close();
                }
            } catch (SQLException ignored) {
                // done anyway
            }
        }

        /** When the first write (primary) or read answered by {@code port} (replica) after {@code since} came; -1: none. */
        long awaitFirst(long since, boolean write, int port, Duration timeout) throws InterruptedException {
            long deadline = System.nanoTime() + timeout.toNanos();
            while (System.nanoTime() - deadline < 0) {
                long first = outcomes.stream().filter(o -> o.code() == 0 && o.nanos() - since > 0 && o.write() == write
                        && (write || o.port() == port)).mapToLong(Outcome::nanos).min().orElse(-1);
                if (first != -1) {
                    return first;
                }
                TimeUnit.MILLISECONDS.sleep(20);
            }
            return -1;
        }

        /** The longest time without an answered statement of the kind, from a second before {@code around} on. */
        long pause(boolean write, long around) {
            List<Long> times = outcomes.stream().filter(o -> o.write() == write && o.code() == 0
                    && o.nanos() - (around - 1_000_000_000L) > 0).map(Outcome::nanos).sorted().toList();
            long longest = 0;
            for (int i = 1; i < times.size(); i++) {
                longest = Math.max(longest, times.get(i) - times.get(i - 1));
            }
            return longest;
        }

        long count(boolean write) {
            return outcomes.stream().filter(o -> o.write() == write && o.code() == 0).count();
        }

        int errors() {
            return (int) outcomes.stream().filter(o -> o.code() != 0).count();
        }

        int transactionErrors() {
            return (int) outcomes.stream().filter(o -> o.code() != 0 && o.client() >= FIRST_TRANSACTIONAL).count();
        }

        Map<String, Long> errorsByMessage() {
            Map<String, Long> counts = new TreeMap<>();
            outcomes.stream().filter(o -> o.code() != 0).forEach(o -> counts.merge(o.code() + " "
                    + o.message().substring(0, Math.min(240, o.message().length())), 1L, Long::sum));
            return counts;
        }

        void stop() throws InterruptedException {
            running.set(false);
            threads.shutdown();
            threads.awaitTermination(70, TimeUnit.SECONDS);
            if (errors() > 0) {
                System.err.println("  client errors: " + errorsByMessage());
            }
        }
    }

    private static void print(List<Row> rows) {
        System.out.println();
        System.out.printf("%-12s %-9s %7s %11s %10s %10s %7s %7s %7s %9s %-17s %5s %10s %8s %7s %9s%n", "primary_wait",
                "killed", "down_ms", "w_pause_ms", "r_pause_ms", "recover_ms", "writes", "reads", "errors", "tx_errors",
                "sysbench_errors", "lost", "duplicated", "unknown", "rerun", "replayed");
        for (Row r : rows) {
            System.out.printf("%-12s %-9s %7d %11d %10d %10d %7d %7d %7d %9d %-17s %5d %10d %8s %7s %9s%n", r.primaryWait(),
                    r.killed(), r.downMs(), r.writePauseMs(), r.readPauseMs(), r.recoverMs(), r.writes(), r.reads(),
                    r.clientErrors(), r.transactionErrors(), r.sysbench(), r.lost(), r.duplicated(), r.unknown(),
                    r.rerun(), r.replayed());
        }
        System.out.println("""

                down_ms: from the kill to the server taking connections again (started after DOWN_MS)
                w_pause_ms, r_pause_ms: the longest time without an acknowledged write / an answered read here
                recover_ms: from the server's start to the first write it ran (primary) or read it answered (replica)
                errors: statements of the writers and readers here that failed, transactions included; tx_errors: of
                  them, the transactional writers' (BEGIN, two inserts, COMMIT; acknowledged rows count as writes)
                sysbench_errors: its ignored errors
                lost: acknowledged writes not on the primary; duplicated: (client, seq) found twice
                unknown: writes that failed with 1927 (lost with their connection, outcome unknown) / of them, those that ran
                rerun: writes the proxy ran again, lost with their connection and shown not to have run / refused as read_only
                replayed: transactions the proxy ran again after their connection was lost / replays that failed
                primary_wait 0s is the baseline: statements fail at once while no primary is up; +replay:
                  routing.transaction_replay on, a transaction lost with its connection runs again on the next""");
    }

    private static String field(String text, String regex) {
        Matcher m = Pattern.compile(regex).matcher(text);
        return m.find() ? m.group(1) : "?";
    }

    private static int env(String name, int fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : Integer.parseInt(value.trim());
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    private static void awaitPort(int port, int seconds) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (System.nanoTime() - deadline < 0) {
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress(H, port), 500);
                return;
            } catch (IOException notYet) {
                TimeUnit.MILLISECONDS.sleep(100);
            }
        }
        throw new IllegalStateException("the proxy did not listen on " + port + " within " + seconds + " s");
    }

    private static void run(Path out, String log, List<String> command, int seconds) throws Exception {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.resolve(log).toFile())
                .start();
        if (!process.waitFor(seconds, TimeUnit.SECONDS) || process.exitValue() != 0) {
            process.destroyForcibly();
            throw new IllegalStateException(String.join(" ", command.subList(0, 2)) + " failed: see " + out.resolve(log));
        }
    }
}
