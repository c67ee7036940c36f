package dev.sluice.proxy.differential;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/** A plan through Connector/J. */
final class SessionRun extends PlanRun {

    private final String options;
    private final ProcessList processList;

    SessionRun(Plan plan, Target target, int round, DiffSettings settings, ProcessList processList) {
        super(plan, target, round);
        this.options = plan.options() + "&connectTimeout=10000&socketTimeout=" + settings.stepTimeout().toMillis();
        this.processList = processList;
    }

    @Override
    Session open() throws SQLException {
        Kills kills = new Kills(target, options, "diff-kill-" + plan.session() + "-" + target.name(), processList);
        Connection c;
        try {
            c = target.open("sluice_test", options);
        } catch (SQLException | RuntimeException e) {
            kills.close();
            throw e;
        }
        StepRunner runner = new StepRunner(c, lock, kills);
        return new Session() {
            @Override
            public void step(Step step, List<String> out) throws SQLException {
                runner.run(step, out);
            }

            @Override
            public void probe(List<String> out) throws SQLException {
                runner.probe(out);
            }

            @Override
            public void abort() {
                try {
                    c.abort(Runnable::run);
                } catch (SQLException | RuntimeException ignored) {
                    // it is being torn down either way
                }
            }

            @Override
            public void close() throws SQLException {
                runner.close();
                try (kills; c) {
                    // both closed, the connection first
                }
            }
        };
    }
}
