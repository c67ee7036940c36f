package dev.sluice.proxy.sql;

import java.util.Locale;

/**
 * The parts of a session's {@code sql_mode} that change where strings and identifiers end, which
 * is all the lexer needs to know about the session.
 *
 * @param noBackslashEscapes {@code NO_BACKSLASH_ESCAPES}: a backslash inside a string is an
 *     ordinary character
 * @param ansiQuotes {@code ANSI_QUOTES}: {@code "..."} quotes an identifier, not a string
 */
public record SqlMode(boolean noBackslashEscapes, boolean ansiQuotes) {

    /** A server's default: backslash escapes on, double quotes delimit strings. */
    public static final SqlMode DEFAULT = new SqlMode(false, false);

    /**
     * Reads the two flags from a {@code sql_mode} value as a server reports it, e.g.
     * {@code "STRICT_TRANS_TABLES,NO_BACKSLASH_ESCAPES"}. The combination modes that include
     * ANSI_QUOTES (ANSI, and MariaDB's DB2, MAXDB, MSSQL, ORACLE, POSTGRESQL) count as it.
     */
    public static SqlMode fromSqlModeVariable(String sqlMode) {
        if (sqlMode == null || sqlMode.isEmpty()) {
            return DEFAULT;
        }
        boolean noBackslashEscapes = false;
        boolean ansiQuotes = false;
        for (String part : sqlMode.split(",")) {
            switch (part.trim().toUpperCase(Locale.ROOT)) {
                case "NO_BACKSLASH_ESCAPES" -> noBackslashEscapes = true;
                case "ANSI_QUOTES", "ANSI", "DB2", "MAXDB", "MSSQL", "ORACLE", "POSTGRESQL" -> ansiQuotes = true;
                default -> { }
            }
        }
        return noBackslashEscapes || ansiQuotes ? new SqlMode(noBackslashEscapes, ansiQuotes) : DEFAULT;
    }
}
