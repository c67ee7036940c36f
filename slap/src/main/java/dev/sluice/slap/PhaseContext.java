package dev.sluice.slap;

import java.io.PrintWriter;
import java.util.List;

/**
 * What every client of one timed phase shares and never changes.
 *
 * @param connector  null for {@code --only-print}
 * @param limit      queries per client; 0 runs the list once (or until the deadline of a timed run)
 * @param keys       primary keys for keyed statements
 * @param out        where {@code --only-print} and {@code -vvv} print statements
 * @param err        where connect failures are reported
 */
record PhaseContext(Connector connector, String schema, List<Statement> statements, long limit,
                    List<String> keys, int commit, int detach, boolean failFast, int verbose,
                    PrintWriter out, PrintWriter err) {

    PhaseContext {
        statements = List.copyOf(statements);
        keys = List.copyOf(keys);
    }

    boolean onlyPrint() {
        return connector == null;
    }
}
