package dev.sluice.proxy.differential;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.IntSupplier;

/**
 * The statements plans are drawn from. Each call returns one step's statements (the first is the
 * one a multi-statement takes). Values a session writes carry its number ({@code 's3-17'}), so a
 * value that leaks into another session is seen as foreign, not just as present.
 */
final class SqlVocabulary {

    private static final String TABLE = "CREATE TABLE IF NOT EXISTS t (id INT AUTO_INCREMENT PRIMARY KEY,"
            + " k INT NOT NULL UNIQUE, v VARCHAR(32), d DECIMAL(10,3), ts DATETIME) ENGINE=InnoDB";
    private static final String[] SQL_MODES = {"''", "'ANSI_QUOTES'", "'STRICT_ALL_TABLES,NO_ZERO_DATE'",
        "'PIPES_AS_CONCAT,ANSI_QUOTES,STRICT_TRANS_TABLES'", "'NO_BACKSLASH_ESCAPES'", "'TRADITIONAL'", "DEFAULT",
        "CONCAT(@@sql_mode, ',ANSI_QUOTES')", "'ERROR_FOR_DIVISION_BY_ZERO'"};

    private final Random random;
    private final int session;
    private final String schema;
    private final boolean sequenceEngine;
    private final IntSupplier step;
    private final boolean followUps;
    private int nextKey = 10;

    /** @param followUps whether statements may be followed by ones that ask what they left ({@link Feature#LAST_STATEMENT}) */
    SqlVocabulary(Random random, int session, String schema, boolean sequenceEngine, IntSupplier step, boolean followUps) {
        this.random = random;
        this.session = session;
        this.schema = schema;
        this.sequenceEngine = sequenceEngine;
        this.step = step;
        this.followUps = followUps;
    }

    /** A fresh schema with table t, three rows and the procedures. */
    List<String> setup() {
        List<String> statements = new ArrayList<>();
        statements.add("DROP DATABASE IF EXISTS " + schema);
        statements.addAll(rebuild());
        return statements;
    }

    /** The schema back after a DROP DATABASE, as far as it is missing. */
    List<String> rebuild() {
        return List.of("CREATE DATABASE IF NOT EXISTS " + schema, "USE " + schema, TABLE,
                "INSERT IGNORE INTO t (k, v, d, ts) VALUES (1, 'one', 1.5, '2024-01-01 10:00:00'), (2, 'two', NULL, NULL),"
                        + " (3, 'Grüße', -2.25, '1999-12-31 23:59:59')",
                "CREATE OR REPLACE PROCEDURE p_tenant(v INT) BEGIN SET @tenant = v; SET SESSION group_concat_max_len = v; END",
                "CREATE OR REPLACE PROCEDURE p_rows() BEGIN SELECT k, v FROM t ORDER BY k; SELECT @tenant AS tenant; END");
    }

    /** SELECT {@code columns} FROM the integers 1 to {@code n} (named seq), with an optional WHERE. */
    String rows(int n, String columns, String where) {
        String filter = where == null ? "" : " WHERE " + where;
        if (sequenceEngine) {
            return "SELECT " + columns + " FROM sluice_test.seq_1_to_" + n + filter;
        }
        return "SET STATEMENT max_recursive_iterations = " + (n + 1) + " FOR WITH RECURSIVE r (seq) AS"
                + " (SELECT 1 UNION ALL SELECT seq + 1 FROM r WHERE seq < " + n + ") SELECT " + columns + " FROM r" + filter;
    }

    String tagText() {
        return "s" + session + "-" + step.getAsInt();
    }

    private String tag() {
        return "'" + tagText() + "'";
    }

    int newKey() {
        return nextKey++;
    }

    private String pick(String... options) {
        return options[random.nextInt(options.length)];
    }

    List<String> setVariable() {
        return List.of(switch (random.nextInt(17)) {
            case 0, 1 -> "SET SESSION sql_mode = " + pick(SQL_MODES);
            case 2 -> "SET time_zone = " + pick("'+05:30'", "'-03:00'", "'+00:00'", "'SYSTEM'", "DEFAULT");
            case 3 -> pick("SET NAMES utf8mb4", "SET NAMES latin1", "SET NAMES utf8mb4 COLLATE utf8mb4_unicode_ci",
                    "SET NAMES utf8mb3", "SET CHARACTER SET latin1", "SET CHARACTER SET utf8mb4",
                    "SET character_set_results = latin1", "SET collation_connection = utf8mb4_bin");
            case 4 -> "SET SESSION group_concat_max_len = " + pick("4", "64", "1024", "100000");
            case 5 -> "SET div_precision_increment = " + random.nextInt(9);
            case 6 -> "SET sql_select_limit = " + pick("1", "5", "DEFAULT", "18446744073709551615");
            case 7 -> "SET lc_time_names = " + pick("'de_DE'", "'fr_FR'", "'ja_JP'", "'en_US'");
            case 8 -> "SET SESSION TRANSACTION ISOLATION LEVEL "
                    + pick("READ COMMITTED", "REPEATABLE READ", "SERIALIZABLE", "READ UNCOMMITTED");
            case 9 -> "SET TRANSACTION READ ONLY";
            case 10 -> "SET @tz = " + pick("'+02:00'", "'-07:00'") + ", time_zone = @tz";
            case 11 -> "SET @u1 = " + tag() + ", SESSION sql_mode = " + pick(SQL_MODES);
            case 12 -> "SET STATEMENT div_precision_increment = 10 FOR SELECT 1/7";
            case 13 -> "SET autocommit = " + pick("0", "1");
            case 14 -> "SET SESSION sql_safe_updates = " + pick("0", "1");
            case 15 -> "SET sql_notes = " + pick("0", "1");
            default -> "SET @@session.time_zone = '+01:00', @@session.lc_time_names = 'de_DE'";
        });
    }

    List<String> userVariable() {
        return List.of(switch (random.nextInt(9)) {
            case 0, 1 -> "SET @u1 = " + tag();
            case 2 -> "SET @u2 = " + (session * 1000 + step.getAsInt());
            case 3 -> "SET @u2 = @u2 + 1";
            case 4 -> "SELECT @u3 := COUNT(*) FROM t";
            case 5 -> "SELECT @u3 := CONCAT(" + tag() + ", '/', @u2)";
            case 6 -> "SET @u1 = NULL";
            case 7 -> "SET @u1 = (SELECT MAX(v) FROM t)";
            default -> "SET @u2 = 1.5e3, @u3 = x'c3bc'";
        });
    }

    List<String> select() {
        int k = 1 + random.nextInt(Math.max(3, nextKey - 8));
        return switch (random.nextInt(22)) {
            case 0, 1 -> List.of("SELECT id, k, v, d, ts FROM t ORDER BY id");
            case 2 -> List.of("SELECT COUNT(*), SUM(k), MAX(v) FROM t");
            case 3 -> List.of("SELECT v FROM t WHERE k = " + k);
            case 4 -> List.of("SELECT 'a' || 'b'");
            case 5 -> List.of("SELECT \"dq\"");
            case 6 -> List.of("SELECT 'x\\ny', LENGTH('x\\ny')");
            case 7 -> List.of("SELECT 1/3, 2/7, 10/4");
            case 8 -> List.of("SELECT DATE_FORMAT('2024-03-05 10:00:00', '%W %M %p'), MONTHNAME('2024-07-01')");
            case 9 -> List.of("SELECT FROM_UNIXTIME(1700000000), CONVERT_TZ('2024-01-01 00:00:00', '+00:00', @@time_zone),"
                    + " UNIX_TIMESTAMP('2024-06-01 12:00:00')");
            case 10 -> List.of(rows(300, "GROUP_CONCAT(seq ORDER BY seq)", null));
            case 11 -> List.of(rows(25, "seq", null));
            case 12 -> List.of("SELECT 'Grüße, 世界', CHARSET('x'), COLLATION('x'), LENGTH('é')");
            case 13 -> List.of("SELECT CAST('2024-02-30' AS DATE), 1 + '1x'");
            case 14 -> followUps ? List.of("SELECT SQL_CALC_FOUND_ROWS k FROM t ORDER BY k LIMIT 1", "SELECT FOUND_ROWS()")
                    : List.of("SELECT SQL_CALC_FOUND_ROWS k FROM t ORDER BY k LIMIT 1");
            case 15 -> followUps ? List.of("SELECT 1 + '1x'", "SHOW WARNINGS", "SELECT @@warning_count")
                    : List.of("SELECT 1 + '1x'");
            case 16 -> List.of("SHOW SESSION VARIABLES LIKE 'sql_mode'");
            case 17 -> List.of("SHOW TABLES");
            case 18 -> List.of("SELECT k FROM t WHERE k IN (SELECT n FROM sluice_test.diff_tmp) ORDER BY k");
            case 19 -> List.of("SELECT SCHEMA_NAME FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = '" + schema + "'");
            case 20 -> List.of("SELECT t.v, x.s FROM t JOIN sluice_test.diff_tmp x ON x.n = t.k ORDER BY t.k");
            default -> List.of("SELECT @@session.autocommit, @@in_transaction, @@transaction_read_only");
        };
    }

    List<String> write() {
        int k = newKey();
        String statement = switch (random.nextInt(12)) {
            case 0, 1 -> "INSERT INTO t (k, v, d, ts) VALUES (" + k + ", " + tag() + ", 12.5, '2024-01-02 03:04:05')";
            case 2 -> "INSERT INTO t (k, v) VALUES (" + k + ", " + tag() + "), (" + newKey() + ", " + tag() + ")";
            case 3 -> "INSERT INTO t (k, v) VALUES (1, 'odku') ON DUPLICATE KEY UPDATE v = CONCAT(v, '!')";
            case 4 -> "UPDATE t SET v = CONCAT(v, '+') WHERE k <= " + (k - random.nextInt(5));
            case 5 -> "DELETE FROM t WHERE k = " + (k - 1 - random.nextInt(3));
            case 6 -> "REPLACE INTO t (k, v) VALUES (2, " + tag() + ")";
            case 7 -> "INSERT INTO t (k, v) VALUES (" + k + ", REPEAT('x', 40))";
            case 8 -> "INSERT INTO t (k, d) VALUES (" + k + ", 1/0)";
            case 9 -> "UPDATE t SET v = 'all'";
            // An id the statement gives: LAST_INSERT_ID() stays what the session generated last.
            case 10 -> "INSERT INTO t (id, k, v) VALUES (" + (100_000 + k) + ", " + k + ", " + tag() + ")";
            default -> "INSERT INTO t (k, v) SELECT k + 1000, v FROM t WHERE k < 5";
        };
        return switch (followUps ? random.nextInt(8) : 7) {
            case 0 -> List.of(statement, "SELECT ROW_COUNT()");
            case 1 -> List.of(statement, "SELECT LAST_INSERT_ID()");
            case 2 -> List.of(statement, "SHOW WARNINGS");
            default -> List.of(statement);
        };
    }

    List<String> error() {
        String statement = pick("SELEC 1", "SELECT * FROM no_such_table", "SELECT nope FROM t",
                "INSERT INTO t (k) VALUES (NULL)", "INSERT INTO t (k, v) VALUES (1, 'dup')", "SELECT * FROM diff_nope.t",
                "DROP TABLE no_such_table", "CALL no_such_proc()", "SELECT 1 FROM DUAL WHERE");
        return switch (followUps ? random.nextInt(8) : 7) {
            case 0 -> List.of(statement, "SHOW WARNINGS");
            case 1 -> List.of(statement, "SHOW ERRORS");
            // Into a user variable: split mode runs it on the primary, whichever backend failed.
            case 2 -> List.of(statement, "GET DIAGNOSTICS CONDITION 1 @errno = MYSQL_ERRNO", "SELECT @errno");
            case 3 -> List.of(statement, "SELECT @@error_count, @@warning_count");
            // Statements that name no table leave the diagnostics in place on the server.
            case 4 -> List.of(statement, "SELECT @@autocommit, 1 + 1", "SHOW WARNINGS");
            case 5 -> List.of(statement, "SET SESSION div_precision_increment = 4", "SELECT @@error_count, @@warning_count");
            case 6 -> List.of(statement, "SET @e = 1", pick("SHOW WARNINGS", "SELECT @@error_count"));
            default -> List.of(statement);
        };
    }

    List<String> temporary() {
        int n = session * 100 + step.getAsInt() % 100;
        return switch (random.nextInt(8)) {
            case 0 -> List.of("CREATE TEMPORARY TABLE sluice_test.diff_tmp (n INT, s VARCHAR(16))");
            case 1 -> List.of("CREATE TEMPORARY TABLE IF NOT EXISTS sluice_test.diff_tmp (n INT, s VARCHAR(16))");
            case 2, 3 -> List.of("INSERT INTO sluice_test.diff_tmp VALUES (" + n + ", " + tag() + ")");
            case 4 -> List.of(pick("DROP TEMPORARY TABLE sluice_test.diff_tmp", "DROP TEMPORARY TABLE IF EXISTS sluice_test.diff_tmp"));
            case 5 -> List.of("CREATE TEMPORARY TABLE t (k INT, v VARCHAR(32))", "INSERT INTO t VALUES (99, " + tag() + ")");
            case 6 -> List.of("DROP TEMPORARY TABLE IF EXISTS t");
            default -> List.of("CREATE TEMPORARY TABLE tt SELECT k, v FROM t", "SELECT COUNT(*) FROM tt");
        };
    }

    List<String> lock() {
        return List.of(pick("SELECT GET_LOCK('{lock}', 2)", "SELECT GET_LOCK('{lock}', 2)", "SELECT RELEASE_LOCK('{lock}')",
                "SELECT RELEASE_ALL_LOCKS()", "SELECT IS_USED_LOCK('{lock}') IS NOT NULL, IS_FREE_LOCK('{lock}')",
                "LOCK TABLES t READ", "LOCK TABLES t WRITE", "UNLOCK TABLES", "UNLOCK TABLES"));
    }
}
