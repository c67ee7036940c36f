package dev.sluice.proxy.differential;

import dev.sluice.protocol.Commands;
import dev.sluice.testkit.TestUsers;
import java.io.IOException;
import java.util.Iterator;
import java.util.List;

/**
 * One plan on one target through {@link WireClient}, as the mariadb client library speaks: text
 * statements and results that end with EOF packets. The steps only JDBC can take (server-side
 * prepared statements and cursors, Connector/J's change of user and kills) are not drawn for this
 * client ({@link DiffSettings#covers}); JDBC's calls become the statements Connector/J sends for
 * them, a CallableStatement its CALL.
 */
final class WireSessionRun extends PlanRun {

    private final int timeoutMillis;

    WireSessionRun(Plan plan, Target target, int round, DiffSettings settings) {
        super(plan, target, round);
        this.timeoutMillis = (int) settings.stepTimeout().toMillis();
    }

    @Override
    Session open() throws IOException {
        WireClient c = new WireClient(target.port(), "sluice_test", TestUsers.APP_USER, TestUsers.APP_PASSWORD,
                timeoutMillis);
        return new Session() {
            @Override
            public void step(Step step, List<String> out) throws IOException {
                run(c, step, out);
            }

            @Override
            public void probe(List<String> out) throws IOException {
                out.addAll(c.query(withLock(StepRunner.PROBE)));
                out.addAll(c.query(StepRunner.TEMPORARY_PROBE));
            }

            @Override
            public void abort() {
                close();
            }

            @Override
            public void close() {
                try {
                    c.close();
                } catch (IOException ignored) {
                    // it is being torn down either way
                }
            }
        };
    }

    private void run(WireClient c, Step step, List<String> out) throws IOException {
        switch (step) {
            case Step.Sql sql -> {
                for (String statement : sql.statements()) {
                    out.addAll(c.query(withLock(statement)));
                }
            }
            case Step.Large large -> out.addAll(c.query(large.mode() == Step.LargeMode.MULTI
                    ? large.sql() + "; SELECT 'after', 2" : large.sql(), pauses(large)));
            case Step.Api api -> out.addAll(api(c, api));
            case Step.Reset reset -> out.addAll(c.command(Commands.COM_RESET_CONNECTION, ""));
            case Step.Callable callable -> out.addAll(c.query("CALL p_tenant(" + callable.value() + ")"));
            case Step.ConnectionId id -> {
                // Named, or the column would carry the id, which differs between targets.
                out.add("CONNECTION_ID() is the handshake's id: "
                        + c.query("SELECT CONNECTION_ID() = " + c.connectionId() + " AS same"));
            }
            default -> out.add("not a step of the wire client: " + step);
        }
    }

    /** What Connector/J sends for the JDBC call. */
    private static List<String> api(WireClient c, Step.Api api) throws IOException {
        return switch (api.call()) {
            case AUTOCOMMIT_ON -> c.query("SET autocommit=1");
            case AUTOCOMMIT_OFF -> c.query("SET autocommit=0");
            case COMMIT -> c.query("COMMIT");
            case ROLLBACK -> c.query("ROLLBACK");
            case SET_CATALOG -> c.command(Commands.COM_INIT_DB, api.argument());
            case ISOLATION_READ_COMMITTED -> c.query("SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED");
            case ISOLATION_SERIALIZABLE -> c.query("SET SESSION TRANSACTION ISOLATION LEVEL SERIALIZABLE");
            case READ_ONLY_ON -> c.query("SET SESSION TRANSACTION READ ONLY");
            case READ_ONLY_OFF -> c.query("SET SESSION TRANSACTION READ WRITE");
        };
    }

    /** A slow reader: sleeps at the rows the step names (the rest of the result is read whole). */
    private static WireClient.RowListener pauses(Step.Large step) {
        Iterator<Step.Pause> pauses = step.pauses().iterator();
        Step.Pause[] next = {pauses.hasNext() ? pauses.next() : null};
        return count -> {
            while (next[0] != null && count == next[0].row()) {
                try {
                    Thread.sleep(next[0].millis());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted while pausing mid-result", e);
                }
                next[0] = pauses.hasNext() ? pauses.next() : null;
            }
        };
    }
}
