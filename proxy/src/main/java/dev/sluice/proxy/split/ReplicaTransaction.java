package dev.sluice.proxy.split;

import dev.sluice.protocol.response.Response;
import dev.sluice.proxy.backend.TrackedConnection;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.function.Consumer;

/**
 * A START TRANSACTION READ ONLY that runs on a replica, remembered so that it can start again on
 * the primary when a statement in it cannot run on the replica as it would there. It has written
 * nothing, so its savepoints hold nothing: setting them again in the order they were set,
 * released and rolled back to gives the primary's transaction the same ones.
 */
final class ReplicaTransaction {

    private final List<String> savepointStatements = new ArrayList<>();

    /** After a statement's response: what it did to the transaction's savepoints. */
    void afterStatement(boolean onReplicaInTransaction, RoutedStatement route, String sql, boolean failed) {
        if (!onReplicaInTransaction) {
            savepointStatements.clear();
        } else if (route.savepoint() && !failed && sql != null) {
            savepointStatements.add(sql);
        }
    }

    /**
     * Starts it on {@code connection} (the primary's) and forgets it: {@code begun} after each step
     * that succeeded, then {@code done}; or {@code failed} with the ERR of the step that failed.
     */
    void restartOn(TrackedConnection connection, Runnable begun, Runnable done, Consumer<Response> failed) {
        List<String> steps = new ArrayList<>(savepointStatements.size() + 1);
        steps.add("START TRANSACTION READ ONLY");
        steps.addAll(savepointStatements);
        savepointStatements.clear();
        run(connection, steps.iterator(), begun, done, failed);
    }

    private static void run(TrackedConnection connection, Iterator<String> steps, Runnable begun, Runnable done,
                            Consumer<Response> failed) {
        if (!steps.hasNext()) {
            done.run();
            return;
        }
        connection.sendOwnQuery(steps.next(), row -> { }, response -> {
            if (response.isError()) {
                failed.accept(response);
            } else {
                begun.run();
                run(connection, steps, begun, done, failed);
            }
        });
    }
}
