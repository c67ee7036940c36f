package dev.sluice.proxy.ha;

import dev.sluice.proxy.ProxyFixture;
import dev.sluice.proxy.ProxyServer;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * Clients of the proxy writing and reading while a test breaks a backend: each writer inserts
 * (client, seq, @@port) rows one autocommit statement at a time, each reader reads. Every outcome
 * is kept as the client saw it, so that afterwards the rows on the primary can be held against
 * what was acknowledged: none lost, none twice, none that no client sent. A connection the proxy
 * ended is opened again. Bounded in time.
 */
final class WriteLoad implements AutoCloseable {

    static final String TABLE = "ha_writes";
    static final String CREATE = "CREATE OR REPLACE TABLE sluice_test." + TABLE
            + " (id BIGINT AUTO_INCREMENT PRIMARY KEY, client INT NOT NULL, seq INT NOT NULL, port INT NOT NULL)";

    /** One statement's outcome: an error code (0: it worked), when it ended, and what it was. */
    record Outcome(long nanos, boolean write, int client, int seq, int code, String message) {
    }

    private final ProxyServer proxy;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final ConcurrentLinkedQueue<Outcome> outcomes = new ConcurrentLinkedQueue<>();
    private final ExecutorService threads;
    private final int writers;
    private final int readers;
    private final long deadline;
    private final LongAdder reconnects = new LongAdder();

    WriteLoad(ProxyServer proxy, int writers, int readers, long maxSeconds) {
        this.proxy = proxy;
        this.writers = writers;
        this.readers = readers;
        this.threads = Executors.newFixedThreadPool(writers + readers);
        this.deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(maxSeconds);
    }

    WriteLoad start() {
        for (int i = 0; i < writers; i++) {
            int client = i + 1;
            threads.submit(() -> run(client, true));
        }
        for (int i = 0; i < readers; i++) {
            int client = 1000 + i;
            threads.submit(() -> run(client, false));
        }
        return this;
    }

    private void run(int client, boolean write) {
        Connection connection = null;
        int seq = 0;
        while (running.get() && System.nanoTime() - deadline < 0) {
            seq++;
            try {
                if (connection == null) {
                    connection = ProxyFixture.connect(proxy, "sluice_test", "connectTimeout=5000&socketTimeout=30000");
                }
                if (write) {
                    try (PreparedStatement insert = connection.prepareStatement(
                            "INSERT INTO " + TABLE + " (client, seq, port) VALUES (?, ?, @@port)")) {
                        insert.setInt(1, client);
                        insert.setInt(2, seq);
                        insert.executeUpdate();
                    }
                } else {
                    try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery("SELECT @@port")) {
                        rs.next();
                    }
                }
                outcomes.add(new Outcome(System.nanoTime(), write, client, seq, 0, null));
            } catch (SQLException e) {
                outcomes.add(new Outcome(System.nanoTime(), write, client, seq, e.getErrorCode(), e.getMessage()));
                if (!usable(connection)) {
                    close(connection);
                    connection = null;
                    reconnects.increment();
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
            }
        }
        close(connection);
    }

    long writesAcknowledgedSince(long nanos) {
        return outcomes.stream().filter(o -> o.write() && o.code() == 0 && o.nanos() - nanos > 0).count();
    }

    long readsSince(long nanos) {
        return outcomes.stream().filter(o -> !o.write() && o.code() == 0 && o.nanos() - nanos > 0).count();
    }

    List<Outcome> errors() {
        return outcomes.stream().filter(o -> o.code() != 0).toList();
    }

    /** Errors by "code message", as a report prints them. */
    Map<String, Long> errorCounts() {
        Map<String, Long> counts = new TreeMap<>();
        for (Outcome o : errors()) {
            String message = o.code() + " " + (o.write() ? "write: " : "read: ") + o.message();
            counts.merge(message.length() > 160 ? message.substring(0, 160) : message, 1L, Long::sum);
        }
        return counts;
    }

    /** When each acknowledged write was acknowledged, by "client-seq". */
    Map<String, Long> acknowledged() {
        Map<String, Long> acked = new HashMap<>();
        outcomes.stream().filter(o -> o.write() && o.code() == 0).forEach(o -> acked.put(o.client() + "-" + o.seq(), o.nanos()));
        return acked;
    }

    /** Writes that failed: the client cannot know whether they ran. */
    Set<String> failedWrites() {
        Set<String> failed = ConcurrentHashMap.newKeySet();
        outcomes.stream().filter(o -> o.write() && o.code() != 0).forEach(o -> failed.add(o.client() + "-" + o.seq()));
        return failed;
    }

    long reconnects() {
        return reconnects.sum();
    }

    /**
     * What the rows on {@code primary} say against what the clients were told; {@code ranThoughFailed}:
     * writes the client got an error for that are there all the same (their outcome was unknown).
     */
    record Ledger(int rows, List<String> lost, List<String> duplicated, List<String> unsent, Map<Integer, Long> rowsByPort,
                  List<String> ranThoughFailed) {
    }

    Ledger ledger(Connection primary) throws SQLException {
        Map<String, Integer> copies = new HashMap<>();
        Map<Integer, Long> byPort = new TreeMap<>();
        int rows = 0;
        try (Statement s = primary.createStatement();
             ResultSet rs = s.executeQuery("SELECT client, seq, port FROM sluice_test." + TABLE + " WHERE client > 0")) {
            while (rs.next()) {
                rows++;
                copies.merge(rs.getInt(1) + "-" + rs.getInt(2), 1, Integer::sum);
                byPort.merge(rs.getInt(3), 1L, Long::sum);
            }
        }
        Map<String, Long> acked = acknowledged();
        Set<String> failed = failedWrites();
        List<String> lost = new ArrayList<>(acked.keySet().stream().filter(k -> !copies.containsKey(k)).sorted().toList());
        List<String> duplicated = copies.entrySet().stream().filter(e -> e.getValue() > 1).map(Map.Entry::getKey).sorted().toList();
        List<String> unsent = copies.keySet().stream().filter(k -> !acked.containsKey(k) && !failed.contains(k)).sorted().toList();
        List<String> ranThoughFailed = failed.stream().filter(copies::containsKey).sorted().toList();
        return new Ledger(rows, lost, duplicated, unsent, byPort, ranThoughFailed);
    }

    @Override
    public void close() throws InterruptedException {
        running.set(false);
        threads.shutdown();
        if (!threads.awaitTermination(40, TimeUnit.SECONDS)) {
            threads.shutdownNow();
        }
    }

    private static boolean usable(Connection connection) {
        try {
            return connection != null && connection.isValid(2);
        } catch (SQLException e) {
            return false;
        }
    }

    private static void close(Connection connection) {
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException ignored) {
                // already broken
            }
        }
    }
}
