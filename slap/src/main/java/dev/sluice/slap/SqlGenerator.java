package dev.sluice.slap;

/**
 * Builds the statements of {@code --auto-generate-sql} in exactly the shape mysqlslap's
 * build_table_string, build_insert_string, build_update_string and build_select_string give them,
 * blanks included.
 */
final class SqlGenerator {

    private final ColumnSpec intCols;
    private final ColumnSpec charCols;
    private final boolean autoincrement;
    private final boolean guidPrimary;
    private final int secondaryIndexes;
    private final RandomValues random;

    SqlGenerator(WorkloadOptions options, RandomValues random) {
        this.intCols = options.intCols();
        this.charCols = options.charCols();
        this.autoincrement = options.addAutoincrement();
        this.guidPrimary = options.guidPrimary();
        this.secondaryIndexes = options.secondaryIndexes();
        this.random = random;
    }

    private boolean hasColumns() {
        return intCols.count() > 0 || charCols.count() > 0;
    }

    private boolean hasId() {
        return autoincrement || guidPrimary;
    }

    Statement createTable() {
        StringBuilder sql = new StringBuilder("CREATE TABLE `t1` (");
        if (autoincrement) {
            sql.append("id serial");
            if (hasColumns()) {
                sql.append(',');
            }
        }
        if (guidPrimary) {
            // mysqlslap's condition here is always true, so the comma is always there.
            sql.append("id varchar(36) primary key,");
        }
        appendSecondaryIndexes(sql, "id%d varchar(36) unique key");
        for (int col = 1; col <= intCols.count(); col++) {
            sql.append(intCols.indexed() ? "intcol" + col + " INT(32), INDEX(intcol" + col + ")" : "intcol" + col + " INT(32) ");
            if (col < intCols.count() || charCols.count() > 0) {
                sql.append(',');
            }
        }
        for (int col = 1; col <= charCols.count(); col++) {
            sql.append(charCols.indexed() ? "charcol" + col + " VARCHAR(128), INDEX(charcol" + col + ") "
                    : "charcol" + col + " VARCHAR(128)");
            if (col < charCols.count()) {
                sql.append(',');
            }
        }
        return Statement.createTable(sql.append(')').toString());
    }

    Statement insert() {
        StringBuilder sql = new StringBuilder("INSERT INTO t1 VALUES (");
        if (autoincrement) {
            sql.append("NULL");
            if (hasColumns()) {
                sql.append(',');
            }
        }
        if (guidPrimary) {
            sql.append("uuid()");
            if (hasColumns()) {
                sql.append(',');
            }
        }
        appendSecondaryIndexes(sql, "uuid()");
        for (int col = 1; col <= intCols.count(); col++) {
            sql.append(random.number());
            if (col < intCols.count() || charCols.count() > 0) {
                sql.append(',');
            }
        }
        for (int col = 1; col <= charCols.count(); col++) {
            sql.append('\'').append(random.string()).append('\'');
            if (col < charCols.count()) {
                sql.append(',');
            }
        }
        return Statement.plain(sql.append(')').toString());
    }

    Statement update() {
        StringBuilder sql = new StringBuilder("UPDATE t1 SET ");
        for (int col = 1; col <= intCols.count(); col++) {
            sql.append("intcol").append(col).append(" = ").append(random.number());
            if (col < intCols.count() || charCols.count() > 0) {
                sql.append(',');
            }
        }
        for (int col = 1; col <= charCols.count(); col++) {
            sql.append("charcol").append(col).append(" = '").append(random.string()).append('\'');
            if (col < charCols.count()) {
                sql.append(',');
            }
        }
        if (hasId()) {
            return Statement.keyed(sql.append(" WHERE id = ").toString());
        }
        return Statement.plain(sql.toString());
    }

    /** A SELECT of every generated column; with {@code key} and an id column, a keyed one. */
    Statement select(boolean key) {
        StringBuilder sql = new StringBuilder("SELECT ");
        for (int col = 1; col <= intCols.count(); col++) {
            sql.append("intcol").append(col);
            if (col < intCols.count() || charCols.count() > 0) {
                sql.append(',');
            }
        }
        for (int col = 1; col <= charCols.count(); col++) {
            sql.append("charcol").append(col);
            if (col < charCols.count()) {
                sql.append(',');
            }
        }
        sql.append(" FROM t1");
        if (key && hasId()) {
            return Statement.keyed(sql.append(" WHERE id = ").toString());
        }
        return Statement.plain(sql.toString());
    }

    private void appendSecondaryIndexes(StringBuilder sql, String pattern) {
        if (secondaryIndexes == 0) {
            return;
        }
        for (int i = 0; i < secondaryIndexes; i++) {
            if (i > 0) {
                sql.append(',');
            }
            sql.append(pattern.formatted(i));
        }
        if (hasColumns()) {
            sql.append(',');
        }
    }
}
