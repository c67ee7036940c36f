package dev.sluice.proxy.sql;

import java.util.Objects;

/**
 * One assignment of a SET statement.
 *
 * <p>System variable and user variable names are lower-cased (the server treats them without
 * case), without {@code @}, {@code @@}, scope prefix or quotes. The special forms use these
 * names, with the raw text after the keyword as value: {@code NAMES} (value e.g.
 * {@code utf8mb4 COLLATE utf8mb4_bin}), {@code CHARACTER SET}, {@code TRANSACTION} (value e.g.
 * {@code ISOLATION LEVEL READ COMMITTED}) and {@code ROLE}.
 *
 * @param scope where the value lands
 * @param name the variable name as described above
 * @param value the value exactly as written (quotes, comments and all), trimmed
 * @param replayable true when the value contains no variables, placeholders, parentheses
 *     (function calls, subqueries) or SELECT, so running it verbatim on another connection gives
 *     the same result
 */
public record SetAssignment(SetScope scope, String name, String value, boolean replayable) {

    public SetAssignment {
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(value, "value");
    }
}
