package dev.sluice.slap;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;

/**
 * Plays captured statements on one connection as what they were: text statements as text,
 * prepared statements prepared, executed with their captured values and closed, under the
 * captured ids; Init DB as USE, Ping as a ping. Every row is read, as the captured client read
 * them; with {@code summarize}, each answer is kept as a {@link StatementResult} to compare. One
 * thread at a time.
 */
final class StatementPlayer implements AutoCloseable {

    /**
     * One statement played.
     *
     * @param micros from sending it to reading its last row
     * @param result what it answered (rows summed up only when summarizing); its error when it failed
     * @param lost   the connection is gone
     */
    record Played(long micros, StatementResult result, boolean lost) {
    }

    private final Connection connection;
    private final Statement text;
    private final boolean summarize;
    private final Map<Long, PreparedStatement> prepared = new HashMap<>();
    private final Map<Long, String> unprepared = new HashMap<>();

    StatementPlayer(Connection connection, boolean summarize) throws SQLException {
        this.connection = connection;
        this.summarize = summarize;
        this.text = connection.createStatement();
        text.setEscapeProcessing(false);
    }

    /** Why {@code event} cannot be played here, or null when it can. */
    String unplayable(CapturedEvent event) {
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

    /** Plays a statement {@link #unplayable} let through. */
    Played play(CapturedEvent event) {
        long begin = System.nanoTime();
        StatementResult.Builder answer = new StatementResult.Builder();
        Statement ran = null;
        try {
            switch (event.command()) {
                case CapturedEvent.QUERY -> {
                    ran = text;
                    drain(text, text.execute(event.sql()), answer);
                }
                case CapturedEvent.PREPARE -> prepare(event);
                case CapturedEvent.EXECUTE -> {
                    PreparedStatement statement = prepared.get(event.statementId());
                    ReplayParams.bind(statement, event.params());
                    ran = statement;
                    drain(statement, statement.execute(), answer);
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
            long micros = (System.nanoTime() - begin) / 1000;
            return new Played(micros, StatementResult.failed(e), connectionLost(e));
        }
        long micros = (System.nanoTime() - begin) / 1000;
        if (summarize && ran != null) {
            try {
                // Asked only when the server counted warnings (Connector/J sends SHOW WARNINGS then).
                answer.warnings(ran.getWarnings());
                ran.clearWarnings();
            } catch (SQLException e) {
                return new Played(micros, StatementResult.failed(e), connectionLost(e));
            }
        }
        return new Played(micros, answer.build(), false);
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

    private void drain(Statement statement, boolean isResult, StatementResult.Builder answer) throws SQLException {
        while (true) {
            if (isResult) {
                try (ResultSet rows = statement.getResultSet()) {
                    if (summarize) {
                        answer.rows(rows);
                    } else {
                        while (rows.next()) {
                            // Every row is read, as the captured client read them.
                        }
                    }
                }
            } else {
                long count = statement.getLargeUpdateCount();
                if (count == -1) {
                    return;
                }
                if (summarize) {
                    answer.affected(count);
                }
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

    @Override
    public void close() {
        try {
            connection.close();
        } catch (SQLException e) {
            // The server already dropped it: nothing left to release.
        }
    }
}
