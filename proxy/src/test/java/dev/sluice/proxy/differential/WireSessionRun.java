package dev.sluice.proxy.differential;

import dev.sluice.protocol.Commands;
import dev.sluice.testkit.TestUsers;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One plan on one target through {@link WireClient}, as the mariadb client library speaks: text
 * statements and results that end with EOF packets. The steps only JDBC can take (server-side
 * prepared statements and cursors, Connector/J's change of user and kills) are not drawn for this
 * client ({@link DiffSettings#covers}); JDBC's calls become the statements Connector/J sends for
 * them, a CallableStatement its CALL.
 */
final class WireSessionRun implements DifferentialRun {

    private final Plan plan;
    private final Target target;
    private final int timeoutMillis;
    private final String lock;
    private final List<Transcript.Entry> entries = Collections.synchronizedList(new ArrayList<>());
    private volatile WireClient client;
    private volatile int current = -1;
    private volatile long stepStart;
    private volatile String aborted;

    WireSessionRun(Plan plan, Target target, int round, DiffSettings settings) {
        this.plan = plan;
        this.target = target;
        this.timeoutMillis = (int) settings.stepTimeout().toMillis();
        this.lock = "diff-" + round + "-" + plan.session() + "-" + target.name();
    }

    @Override
    public Transcript call() {
        String abort = null;
        try (WireClient c = new WireClient(target.port(), "sluice_test", TestUsers.APP_USER, TestUsers.APP_PASSWORD,
                timeoutMillis)) {
            client = c;
            for (int i = 0; i < plan.steps().size() && aborted == null; i++) {
                current = i;
                stepStart = System.nanoTime();
                List<String> out = new ArrayList<>();
                try {
                    run(c, plan.steps().get(i), out);
                    out.addAll(c.query(withLock(StepRunner.PROBE)));
                    out.addAll(c.query(StepRunner.TEMPORARY_PROBE));
                } catch (IOException | RuntimeException e) {
                    out.add("connection lost: " + e);
                    abort = "connection lost in step " + i + " after " + elapsedMillis() + " ms";
                }
                entries.add(new Transcript.Entry(i, out.stream().map(o -> o.replace(lock, "{lock}")).toList(),
                        elapsedMillis()));
                if (abort != null) {
                    break;
                }
            }
        } catch (IOException e) {
            abort = "connect or close failed: " + e;
        }
        return transcript(abort);
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

    private String withLock(String statement) {
        return statement.replace("{lock}", lock);
    }

    private long elapsedMillis() {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stepStart);
    }

    @Override
    public void abort(String why) {
        aborted = why + " (in step " + current + " for " + elapsedMillis() + " ms)";
        WireClient c = client;
        if (c != null) {
            try {
                c.close();
            } catch (IOException ignored) {
                // it is being torn down either way
            }
        }
    }

    @Override
    public Transcript transcript(String abort) {
        synchronized (entries) {
            return new Transcript(target.kind(), List.copyOf(entries), aborted != null ? aborted : abort);
        }
    }

    @Override
    public int currentStep() {
        return current;
    }
}
