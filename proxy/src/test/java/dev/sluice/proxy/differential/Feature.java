package dev.sluice.proxy.differential;

import java.util.Arrays;
import java.util.Locale;

/**
 * A kind of step the plans may contain; each can be left out ({@code -Dsluice.diff.skip=name,...})
 * or drawn more often ({@code -Dsluice.diff.focus=name,...}).
 */
enum Feature {
    SESSION_VARIABLES,
    USER_VARIABLES,
    USE,
    DROP_CREATE_SCHEMA,
    TRANSACTIONS,
    TEMPORARY_TABLES,
    PREPARED,
    CURSORS,
    LOCKS,
    LARGE_RESULTS,
    SLOW_READERS,
    MULTI_STATEMENTS,
    ERRORS,
    /**
     * What the last statement left for the next one to ask: ROW_COUNT(), FOUND_ROWS(),
     * LAST_INSERT_ID(), SHOW WARNINGS and ERRORS, @@warning_count, GET DIAGNOSTICS.
     */
    LAST_STATEMENT,
    CALL,
    RESET_CONNECTION,
    CHANGE_USER,
    /** KILL QUERY of the session's own statement from a second connection, and setQueryTimeout. */
    KILL,
    /** CONNECTION_ID() against the id the handshake gave. */
    CONNECTION_ID;

    String configName() {
        return name().toLowerCase(Locale.ROOT);
    }

    static Feature named(String name) {
        return Arrays.stream(values()).filter(f -> f.configName().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("sluice.diff.skip: unknown feature '" + name
                        + "' (expected: " + String.join(", ", Arrays.stream(values()).map(Feature::configName).toList())
                        + ")"));
    }
}
