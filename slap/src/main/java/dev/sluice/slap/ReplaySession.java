package dev.sluice.slap;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;

/**
 * One captured session played on its own connection: statements in their captured order (as the
 * feed hands them over), each when its captured offset from the session's first statement
 * (divided by the speed) has passed. The connection opens when the first statement is due, with
 * the session's schema, and closes after the last. Prepared statements are prepared, executed and
 * closed as captured, under the captured ids. Errors are counted and the session goes on, as the
 * original did. Every statement of the session is taken from the feed, played or not.
 */
final class ReplaySession implements Runnable {

    private final ReplayPlan.Session plan;
    private final ReplayFeed feed;
    private final ReplayConnector connector;
    private final double speed;
    private final long dueNanos;
    private final ErrorTally errors;
    private final ReplayTally tally = new ReplayTally();
    private final Map<Long, PreparedStatement> prepared = new HashMap<>();
    private final Map<Long, String> unprepared = new HashMap<>();
    private Connection connection;
    private Statement text;

    /** @param dueNanos when (System.nanoTime) the first statement is due at the earliest */
    ReplaySession(ReplayPlan.Session plan, ReplayFeed feed, ReplayConnector connector, double speed, long dueNanos,
                  ErrorTally errors) {
        this.plan = plan;
        this.feed = feed;
        this.connector = connector;
        this.speed = speed;
        this.dueNanos = dueNanos;
        this.errors = errors;
    }

    ReplayTally tally() {
        return tally;
    }

    static String key(CapturedEvent event) {
        return event.command() + "|" + event.digestKey();
    }

    @Override
    public void run() {
        ReplayFeed.Inbox inbox = feed.inbox(plan.id);
        waitUntil(dueNanos);
        inbox.start();
        long start = Math.max(System.nanoTime(), dueNanos);
        try {
            try {
                connection = connector.open(plan.schema);
                text = connection.createStatement();
                text.setEscapeProcessing(false);
            } catch (SQLException e) {
                errors.add(Connector.errorKey(e), "connect: " + Connector.firstLine(e.getMessage()));
                skip(inbox, 0, "the session could not connect");
                return;
            }
            try {
                for (long i = 0; i < plan.statements; i++) {
                    CapturedEvent event = feed.next(inbox);
                    if (event == null) {
                        skipUnread(plan.statements - i);
                        return;
                    }
                    if (speed > 0) {
                        waitUntil(start + (long) ((event.timeMicros() - plan.firstMicros) * 1000 / speed));
                    }
                    if (!play(event)) {
                        skip(inbox, i + 1, "the connection was lost");
                        return;
                    }
                }
            } finally {
                close();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Takes the session's statements from {@code done} on without playing them. */
    private void skip(ReplayFeed.Inbox inbox, long done, String reason) throws InterruptedException {
        for (long i = done; i < plan.statements; i++) {
            if (feed.next(inbox) == null) {
                skipUnread(plan.statements - i);
                return;
            }
            tally.notReplayed(reason);
        }
    }

    private void skipUnread(long left) {
        for (long i = 0; i < left; i++) {
            tally.notReplayed("not read: " + feed.failure());
        }
    }

    /** Plays one statement; false when the connection is gone. */
    private boolean play(CapturedEvent event) {
        String reason = unplayable(event);
        if (reason != null) {
            tally.notReplayed(event.command() + ": " + reason);
            return true;
        }
        long begin = System.nanoTime();
        try {
            switch (event.command()) {
                case CapturedEvent.QUERY -> drain(text, text.execute(event.sql()));
                case CapturedEvent.PREPARE -> prepare(event);
                case CapturedEvent.EXECUTE -> {
                    PreparedStatement statement = prepared.get(event.statementId());
                    ReplayParams.bind(statement, event.params());
                    drain(statement, statement.execute());
                }
                case CapturedEvent.CLOSE -> prepared.remove(event.statementId()).close();
                // USE rather than setCatalog: Connector/J skips a schema it believes is current already.
                case CapturedEvent.INIT_DB -> text.execute("USE `" + event.sql().replace("`", "``") + "`");
                case CapturedEvent.PING -> {
                    if (!connection.isValid(60)) {
                        throw new SQLException("ping: the server did not answer", "08S01");
                    }
                }
                default -> throw new IllegalStateException("unplayable() let " + event.command() + " through");
            }
        } catch (SQLException e) {
            errors.add(Connector.errorKey(e), Connector.firstLine(e.getMessage()));
            tally.replayed(key(event), event.command(), (System.nanoTime() - begin) / 1000);
            return !connectionLost(e);
        }
        tally.replayed(key(event), event.command(), (System.nanoTime() - begin) / 1000);
        return true;
    }

    private void prepare(CapturedEvent event) throws SQLException {
        PreparedStatement old = prepared.remove(event.statementId());
        if (old != null) {
            old.close();
        }
        try {
            prepared.put(event.statementId(), connection.prepareStatement(event.sql()));
            unprepared.remove(event.statementId());
        } catch (SQLException e) {
            unprepared.put(event.statementId(), "its prepare failed");
            throw e;
        }
    }

    /** Why a statement cannot be played, or null when it can. */
    private String unplayable(CapturedEvent event) {
        return switch (event.command()) {
            case CapturedEvent.QUERY, CapturedEvent.PREPARE -> event.sql() == null
                    ? "no SQL text (captured with sql: digest or none)" : event.truncated() ? "cut short at capture" : null;
            case CapturedEvent.EXECUTE, CapturedEvent.CLOSE -> {
                if (event.statementId() < 0) {
                    yield "the capture does not say which prepared statement";
                }
                if (!prepared.containsKey(event.statementId())) {
                    yield unprepared.getOrDefault(event.statementId(), "prepared before the capture started");
                }
                if (event.command().equals(CapturedEvent.EXECUTE) && event.params() == null) {
                    yield event.paramsProblem() == null ? "no parameter values" : event.paramsProblem();
                }
                yield null;
            }
            case CapturedEvent.INIT_DB -> event.sql() == null ? "no schema" : null;
            case CapturedEvent.PING -> null;
            case "Change user" -> "needs the session's password, which is never captured";
            default -> "not replayed";
        };
    }

    private static void drain(Statement statement, boolean isResult) throws SQLException {
        while (true) {
            if (isResult) {
                try (ResultSet rows = statement.getResultSet()) {
                    while (rows.next()) {
                        // Every row is read, as the captured client read them.
                    }
                }
            } else if (statement.getUpdateCount() == -1) {
                return;
            }
            isResult = statement.getMoreResults();
        }
    }

    private boolean connectionLost(SQLException e) {
        try {
            return (e.getSQLState() != null && e.getSQLState().startsWith("08")) || connection.isClosed();
        } catch (SQLException closed) {
            return true;
        }
    }

    private void close() {
        try {
            connection.close();
        } catch (SQLException e) {
            // The server already dropped it: nothing left to release.
        }
    }

    private static void waitUntil(long deadline) {
        long left;
        while ((left = deadline - System.nanoTime()) > 0 && !Thread.currentThread().isInterrupted()) {
            LockSupport.parkNanos(left);
        }
    }
}
