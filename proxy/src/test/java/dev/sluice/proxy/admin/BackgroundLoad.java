package dev.sluice.proxy.admin;

import dev.sluice.proxy.ProxyFixture;
import dev.sluice.proxy.ProxyServer;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Statements through the proxy at a steady pace while a test watches, on one connection: a read
 * (replicas in split mode) a few milliseconds after the last statement ended, a write (the
 * primary) now and then, at most {@value #MAX_STATEMENTS} of them, until closed.
 */
final class BackgroundLoad implements AutoCloseable {

    private static final long MAX_STATEMENTS = 50_000;
    private static final long PERIOD_MILLIS = 4;

    private final Connection connection;
    private final Statement statement;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    private final AtomicLong sent = new AtomicLong();
    private volatile SQLException failure;

    private BackgroundLoad(Connection connection) throws SQLException {
        this.connection = connection;
        this.statement = connection.createStatement();
    }

    /** Needs sluice_test.page_load (id INT PRIMARY KEY, n INT) on every backend. */
    static BackgroundLoad start(ProxyServer proxy) throws SQLException {
        BackgroundLoad load = new BackgroundLoad(ProxyFixture.connect(proxy, "sluice_test", ""));
        load.timer.scheduleWithFixedDelay(load::step, 0, PERIOD_MILLIS, TimeUnit.MILLISECONDS);
        return load;
    }

    private void step() {
        long i = sent.incrementAndGet();
        if (i > MAX_STATEMENTS || failure != null) {
            timer.shutdown();
            return;
        }
        try {
            if (i % 20 == 0) {
                statement.executeUpdate("REPLACE INTO page_load VALUES (" + (i % 100) + ", " + i + ")");
            } else {
                try (ResultSet rs = statement.executeQuery("SELECT n FROM page_load WHERE id = " + (i % 100))) {
                    rs.next();
                }
            }
        } catch (SQLException e) {
            failure = e;
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
        try {
            timer.awaitTermination(10, TimeUnit.SECONDS);
            connection.close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (SQLException e) {
            throw new IllegalStateException("closing the load's connection", e);
        }
        if (failure != null) {
            throw new IllegalStateException("a statement of the background load failed", failure);
        }
    }
}
