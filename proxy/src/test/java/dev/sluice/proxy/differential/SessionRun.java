package dev.sluice.proxy.differential;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One plan on one target: a connection, every step followed by the probe, a transcript. A step
 * that hangs ends with the socket timeout; a session the watchdog gives up on is aborted from the
 * outside ({@link #abort}), which closes its socket.
 */
final class SessionRun implements DifferentialRun {

    private final Plan plan;
    private final Target target;
    private final String options;
    private final String lock;
    private final ProcessList processList;
    private final List<Transcript.Entry> entries = Collections.synchronizedList(new ArrayList<>());
    private volatile Connection connection;
    private volatile int current = -1;
    private volatile long stepStart;
    private volatile String aborted;

    SessionRun(Plan plan, Target target, int round, DiffSettings settings, ProcessList processList) {
        this.plan = plan;
        this.target = target;
        this.options = plan.options() + "&connectTimeout=10000&socketTimeout=" + settings.stepTimeout().toMillis();
        this.lock = "diff-" + round + "-" + plan.session() + "-" + target.name();
        this.processList = processList;
    }

    @Override
    public Transcript call() {
        String abort = null;
        try (Kills kills = new Kills(target, options, "diff-kill-" + plan.session() + "-" + target.name(), processList);
             Connection c = target.open("sluice_test", options)) {
            connection = c;
            StepRunner runner = new StepRunner(c, lock, kills);
            for (int i = 0; i < plan.steps().size() && aborted == null; i++) {
                current = i;
                stepStart = System.nanoTime();
                List<String> out = new ArrayList<>();
                try {
                    runner.run(plan.steps().get(i), out);
                    runner.probe(out);
                } catch (SQLException | RuntimeException e) {
                    out.add("connection lost: " + (e instanceof SQLException sql ? Results.error(sql) : e.toString()));
                    abort = "connection lost in step " + i + " after " + elapsedMillis() + " ms";
                }
                entries.add(new Transcript.Entry(i, out.stream().map(o -> o.replace(lock, "{lock}")).toList(),
                        elapsedMillis()));
                if (abort != null) {
                    break;
                }
            }
            runner.close();
        } catch (SQLException e) {
            abort = "connect or close failed: " + Results.error(e);
        }
        return transcript(abort);
    }

    private long elapsedMillis() {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stepStart);
    }

    @Override
    public void abort(String why) {
        aborted = why + " (in step " + current + " for " + elapsedMillis() + " ms)";
        Connection c = connection;
        if (c != null) {
            try {
                c.abort(Runnable::run);
            } catch (SQLException | RuntimeException ignored) {
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
