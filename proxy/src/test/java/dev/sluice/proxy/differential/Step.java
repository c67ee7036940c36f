package dev.sluice.proxy.differential;

import java.util.List;

/**
 * One step of a session plan. Statements may contain {@code {lock}}, which the runner replaces by a
 * lock name of this session on this target (user locks are server-wide, and the run on one target
 * may start while the server still releases the previous run's locks); nothing else differs
 * between targets. {@link #toString()} is what a failure report prints.
 */
sealed interface Step {

    /** Statements run one after another with {@code Statement.execute}; a text with ';' is a multi-statement. */
    record Sql(List<String> statements) implements Step {
        Sql(String... statements) {
            this(List.of(statements));
        }

        @Override
        public String toString() {
            return "sql " + String.join("  ||  ", statements);
        }
    }

    /**
     * A prepared statement run once per parameter list, then closed. With {@code fetchSize > 0} rows
     * come {@code fetchSize} at a time (a server cursor when the connection has useCursorFetch); with
     * {@code interleave} another statement runs on the connection after the first rows.
     */
    record Prepared(String sql, List<List<Object>> executions, int fetchSize, boolean interleave) implements Step {
        @Override
        public String toString() {
            return "prepare " + sql + " execute " + executions + (fetchSize > 0 ? " fetchSize " + fetchSize : "")
                    + (interleave ? " interleaved" : "");
        }
    }

    /** The session's long-lived prepared statement ({@link StepRunner#REUSED}), prepared on first use. */
    record Reuse(int k) implements Step {
        @Override
        public String toString() {
            return "reuse prepared k=" + k;
        }
    }

    /** How a large result is read. */
    enum LargeMode {
        /** Connector/J streaming: setFetchSize(Integer.MIN_VALUE) on a plain statement. */
        STREAM,
        /** A server cursor: useCursorFetch and setFetchSize(n) on a prepared statement. */
        CURSOR,
        /** Read whole into the driver's memory first. */
        BUFFERED,
        /**
         * Buffered, as the first result of a multi-statement with a second one behind it (as the
         * mariadb client reads {@code SELECT ... FROM seq_1_to_100000; SELECT 1}). Not streamed:
         * Connector/J cannot close a streamed result that has another behind it.
         */
        MULTI
    }

    /** A pause of {@code millis} after reading {@code row} rows: a slow reader. */
    record Pause(int row, int millis) {
        @Override
        public String toString() {
            return millis + " ms at row " + row;
        }
    }

    /** A result of {@code rows} rows, read as {@code mode} says, with pauses; closed early at {@code closeAt} (or -1). */
    record Large(String sql, int rows, LargeMode mode, int fetchSize, List<Pause> pauses, int closeAt) implements Step {
        @Override
        public String toString() {
            return "large " + mode + " " + rows + " rows" + (fetchSize > 0 ? " fetchSize " + fetchSize : "")
                    + (pauses.isEmpty() ? "" : " pauses " + pauses) + (closeAt >= 0 ? " closed at row " + closeAt : "")
                    + ": " + sql;
        }
    }

    /** JDBC calls that send statements of the driver's own choosing. */
    enum ApiCall { AUTOCOMMIT_ON, AUTOCOMMIT_OFF, COMMIT, ROLLBACK, SET_CATALOG, ISOLATION_READ_COMMITTED,
        ISOLATION_SERIALIZABLE, READ_ONLY_ON, READ_ONLY_OFF }

    record Api(ApiCall call, String argument) implements Step {
        @Override
        public String toString() {
            return "jdbc " + call + (argument.isEmpty() ? "" : " " + argument);
        }
    }

    /** {@code {CALL p_tenant(?)}} through a CallableStatement. */
    record Callable(int value) implements Step {
        @Override
        public String toString() {
            return "callable {CALL p_tenant(" + value + ")}";
        }
    }

    /** COM_RESET_CONNECTION: Connector/J's resetServerState. */
    record Reset() implements Step {
        @Override
        public String toString() {
            return "COM_RESET_CONNECTION (resetServerState)";
        }
    }

    /**
     * COM_CHANGE_USER: to app2 (whose grants cover sluice_test only, so the schema is sluice_test
     * first) and back to app with the schema before; or to app again.
     */
    record ChangeUser(boolean otherUser) implements Step {
        @Override
        public String toString() {
            return otherUser ? "COM_CHANGE_USER to app2 (in sluice_test), probe, back to app" : "COM_CHANGE_USER to app";
        }
    }

    enum KillKind {
        /** KILL QUERY of the handshake's id from a second connection, once the statement runs. */
        SECOND_CONNECTION,
        /** Statement.setQueryTimeout: Connector/J opens a connection and sends KILL QUERY itself. */
        QUERY_TIMEOUT
    }

    /** {@code SELECT SLEEP(seconds)} on this connection, killed as {@code kind} says. */
    record Kill(KillKind kind, int seconds) implements Step {
        @Override
        public String toString() {
            return "kill " + kind + " of SELECT SLEEP(" + seconds + ")";
        }
    }

    /** Whether CONNECTION_ID() is the thread id of the handshake. */
    record ConnectionId() implements Step {
        @Override
        public String toString() {
            return "SELECT CONNECTION_ID() = the handshake's id";
        }
    }
}
