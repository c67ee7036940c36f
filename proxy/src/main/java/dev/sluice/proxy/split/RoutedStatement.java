package dev.sluice.proxy.split;

import java.util.EnumSet;
import java.util.Set;

/**
 * What routing needs to know about one statement, derived from the SQL classifier.
 *
 * @param target        where it may run
 * @param pins          state it creates that ties the session to its connection
 * @param releases      pinned state it removes (UNLOCK TABLES, RELEASE_ALL_LOCKS)
 * @param readOnlyTransaction it starts a transaction that may run on a replica (START TRANSACTION READ ONLY)
 * @param keepForNext   the next statement must run where this one ran (SQL_CALC_FOUND_ROWS, a prepare)
 */
public record RoutedStatement(Target target, Set<PinReason> pins, Set<PinReason> releases,
                              boolean readOnlyTransaction, boolean keepForNext) {

    public static final RoutedStatement PRIMARY = new RoutedStatement(Target.PRIMARY, Set.of(), Set.of(), false, false);

    public RoutedStatement {
        pins = pins.isEmpty() ? Set.of() : EnumSet.copyOf(pins);
        releases = releases.isEmpty() ? Set.of() : EnumSet.copyOf(releases);
    }
}
