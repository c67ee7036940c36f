package dev.sluice.proxy.admin;

/** What an admin statement answers: rows, or OK with a count and a message. */
sealed interface AdminResult {

    record Rows(Table table) implements AdminResult {
    }

    /** @param info shown by the mariadb client after "Query OK" (as the server's info string) */
    record Ok(long affectedRows, String info) implements AdminResult {
    }
}
