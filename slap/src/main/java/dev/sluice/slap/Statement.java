package dev.sluice.slap;

import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * One statement of a create or query list. A {@link Kind#KEYED} statement ends in
 * {@code WHERE id = } and gets a quoted primary key appended at run time, after a blank, which is
 * why mysqlslap's keyed statements show two blanks before the quote.
 *
 * <p>The text is encoded once, here: every client sends the same statements over and over, and
 * encoding each execution afresh cost a load client CPU (and garbage) per statement.
 */
public final class Statement {

    /** How the statement is sent. */
    public enum Kind { PLAIN, CREATE_TABLE, KEYED }

    /** The sysbench read/write/other split used by the interval lines. */
    public enum Category { READ, WRITE, OTHER }

    private final String sql;
    private final Kind kind;
    private final Category category;
    private final byte[] utf8;

    private Statement(String sql, Kind kind, Category category) {
        this.sql = sql;
        this.kind = kind;
        this.category = category;
        this.utf8 = sql.getBytes(StandardCharsets.UTF_8);
    }

    public String sql() {
        return sql;
    }

    public Kind kind() {
        return kind;
    }

    public Category category() {
        return category;
    }

    /** {@link #sql()} in UTF-8, shared: never to be written to. */
    byte[] utf8() {
        return utf8;
    }

    @Override
    public String toString() {
        return sql;
    }

    public static Statement plain(String sql) {
        return new Statement(sql, Kind.PLAIN, categorize(sql));
    }

    public static Statement createTable(String sql) {
        return new Statement(sql, Kind.CREATE_TABLE, Category.OTHER);
    }

    public static Statement keyed(String sql) {
        return new Statement(sql, Kind.KEYED, categorize(sql));
    }

    public Statement asCreateTable() {
        return new Statement(sql, Kind.CREATE_TABLE, category);
    }

    /** The text to send, with {@code key} appended to a keyed statement. */
    public String render(String key) {
        return kind == Kind.KEYED ? sql + " '" + key + "'" : sql;
    }

    static Category categorize(String sql) {
        String head = sql.stripLeading();
        int end = 0;
        while (end < head.length() && Character.isLetter(head.charAt(end))) {
            end++;
        }
        return switch (head.substring(0, end).toUpperCase(Locale.ROOT)) {
            case "SELECT", "SHOW", "WITH", "VALUES", "TABLE", "DESCRIBE", "DESC", "EXPLAIN" -> Category.READ;
            case "INSERT", "UPDATE", "DELETE", "REPLACE", "LOAD", "MERGE" -> Category.WRITE;
            default -> Category.OTHER;
        };
    }
}
