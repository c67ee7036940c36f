package dev.sluice.proxy.differential;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One plan on one target: a connection, every step followed by the probe, a transcript. A step
 * that hangs ends with the socket timeout; a session the watchdog gives up on is aborted from the
 * outside ({@link #abort}), which closes its socket. Subclasses speak through one kind of client.
 */
abstract class PlanRun implements DifferentialRun {

    /** A session's connection, open for the whole plan. */
    interface Session extends AutoCloseable {
        void step(Step step, List<String> out) throws Exception;

        void probe(List<String> out) throws Exception;

        /** Closes the socket from another thread, so that a read that waits fails now. */
        void abort();
    }

    final Plan plan;
    final Target target;
    /** A lock name of this session on this target, in place of {@code {lock}} in statements. */
    final String lock;
    private final List<Transcript.Entry> entries = Collections.synchronizedList(new ArrayList<>());
    private volatile Session session;
    private volatile int current = -1;
    private volatile long stepStart;
    private volatile String aborted;

    PlanRun(Plan plan, Target target, int round) {
        this.plan = plan;
        this.target = target;
        this.lock = "diff-" + round + "-" + plan.session() + "-" + target.name();
    }

    abstract Session open() throws Exception;

    @Override
    public Transcript call() {
        String abort = null;
        try (Session s = open()) {
            session = s;
            for (int i = 0; i < plan.steps().size() && aborted == null; i++) {
                current = i;
                stepStart = System.nanoTime();
                List<String> out = new ArrayList<>();
                try {
                    s.step(plan.steps().get(i), out);
                    s.probe(out);
                } catch (Exception e) {
                    out.add("connection lost: " + describe(e));
                    abort = "connection lost in step " + i + " after " + elapsedMillis() + " ms";
                }
                entries.add(new Transcript.Entry(i, out.stream().map(o -> o.replace(lock, "{lock}")).toList(),
                        elapsedMillis()));
                if (abort != null) {
                    break;
                }
            }
        } catch (Exception e) {
            abort = "connect or close failed: " + describe(e);
        }
        return transcript(abort);
    }

    String withLock(String statement) {
        return statement.replace("{lock}", lock);
    }

    private static String describe(Exception e) {
        return e instanceof SQLException sql ? Results.error(sql) : e.toString();
    }

    private long elapsedMillis() {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stepStart);
    }

    @Override
    public void abort(String why) {
        aborted = why + " (in step " + current + " for " + elapsedMillis() + " ms)";
        Session s = session;
        if (s != null) {
            s.abort();
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
