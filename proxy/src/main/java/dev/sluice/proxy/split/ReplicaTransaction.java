package dev.sluice.proxy.split;

import java.util.ArrayList;
import java.util.List;

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

    /** The statements that start it on the primary, in order; it is forgotten. */
    List<String> restartOnPrimary() {
        List<String> statements = new ArrayList<>(savepointStatements.size() + 1);
        statements.add("START TRANSACTION READ ONLY");
        statements.addAll(savepointStatements);
        savepointStatements.clear();
        return statements;
    }
}
