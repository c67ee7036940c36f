package dev.sluice.proxy.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Random and mutated statements through every entry point: nothing throws, digests agree with
 * their hash, and no text with a write keyword outside quotes and comments is ever read-only
 * (checked against {@link WriteKeywordOracle}, written apart from the lexer).
 */
class RobustnessTest {
    private static final long SEED = 20_250_101L;
    private static final int CASES = 10_000;
    private static final Set<StatementKind> READ_KINDS =
            EnumSet.of(StatementKind.SELECT, StatementKind.SHOW, StatementKind.EXPLAIN, StatementKind.BEGIN);

    private static final List<String> SEEDS = List.of(
            "SELECT c FROM sbtest1 WHERE id=?",
            "SELECT DISTINCT c FROM sbtest1 WHERE id BETWEEN ? AND ? ORDER BY c",
            "UPDATE sbtest1 SET k=k+1 WHERE id=?",
            "INSERT INTO t1 VALUES (NULL,964445884,'DPh7kD1E6f4MMQk1ioop')\0",
            "SELECT intcol1,charcol1 FROM t1\0",
            "/* mysql-connector-j-9.5.0 (Revision: a7b3c94f) */SELECT  @@session.auto_increment_increment AS a",
            "SET NAMES utf8mb4 COLLATE utf8mb4_bin",
            "SELECT * FROM t WHERE a = 'FOR UPDATE' AND b IN (1, 2, 3) -- x",
            "WITH c (x) AS (SELECT 1) SELECT * FROM c UNION (SELECT 2)",
            "SELECT `select`, t.`update`, @x := 1 FROM t /*!50100 FOR UPDATE */",
            "CREATE USER 'u'@'h' IDENTIFIED BY 'pw'",
            "EXPLAIN ANALYZE SELECT GET_LOCK('a', 1), LAST_INSERT_ID()",
            "START TRANSACTION READ ONLY, WITH CONSISTENT SNAPSHOT",
            "SHOW CREATE TABLE t",
            "CREATE PROCEDURE p() BEGIN SELECT 1; END",
            "SELECT 'a\\' ; DELETE FROM t; -- '",
            "SELECT JSON_EXTRACT(a, '$.b') FROM t WHERE x = _utf8mb4'é' COLLATE utf8mb4_bin",
            "SET STATEMENT max_statement_time=1 FOR SELECT * FROM t LOCK IN SHARE MODE");

    private static final String[] FRAGMENTS = {
        " ", "\n", "\t", "\0", ";", "'", "\"", "`", "\\", "(", ")", ",", ".", "?", "@", "@@", ":=", "=", "-", "--",
        "-- ", "#", "/*", "*/", "/*!", "/*!50100 ", "/*M!", "/*+", "*", "0x", "x'", "b'", "N'", "1e", ".5", "_utf8mb4",
        "SELECT", "select", "FROM", "WHERE", "FOR", "UPDATE", "update", "SHARE", "LOCK", "IN", "MODE", "INTO",
        "OUTFILE", "@x", "@`y`", "@@session.sql_mode", "INSERT", "DELETE", "REPLACE", "CREATE", "DROP", "ALTER",
        "TRUNCATE", "SET", "CALL", "LOAD", "GRANT", "WITH", "AS", "EXPLAIN", "ANALYZE", "SHOW", "BEGIN", "START",
        "TRANSACTION", "READ", "ONLY", "WRITE", "UNION", "VALUES", "GET_LOCK(", "LAST_INSERT_ID()", "f(", "db.f(",
        "CHARACTER SET", "名前", "é", "😀", "\uD800", "sluice:replica", "/* sluice:primary */", "IDENTIFIED BY",
        "\\'", "''", "*/ DELETE FROM t", "/*!99999 '", "DESCRIBE", "EXPLAIN FORMAT=JSON", "SET STATEMENT x=1 FOR",
        "PROCEDURE", "t.", "`t`.", "IN SHARE MODE", "INTO @v", "REPLACE(", "INSERT(", "ANALYZE", "TABLE", "DO",
        "HANDLER", "SHOW CREATE", "0b1", "1abc", "\r\n", "\u00A0", "--\u0001", "/*M!100000 "};

    private final StatementClassifier classifier = new StatementClassifier();
    private final Digest digest = new Digest(512);

    @Test
    void tenThousandRandomAndMutatedStatements() {
        Random random = new Random(SEED);
        int readOnly = 0;
        for (int i = 0; i < CASES; i++) {
            String sql = switch (i % 4) {
                case 0 -> randomText(random);
                case 1 -> mutate(random, SEEDS.get(random.nextInt(SEEDS.size())));
                case 2 -> splice(random);
                default -> mutate(random, mutate(random, SEEDS.get(random.nextInt(SEEDS.size()))));
            };
            readOnly += check(sql) ? 1 : 0;
        }
        System.out.printf("robustness: %d statements (seed %d), %d read-only%n", CASES, SEED, readOnly);
        assertThat(readOnly).as("the generator also produces read-only statements").isGreaterThan(100);
    }

    /** Runs every entry point on {@code sql}; returns whether the default mode called it read-only. */
    private boolean check(String sql) {
        String shown = sql.replace("\0", "\\0");
        boolean readOnly = false;
        for (SqlMode mode : new SqlMode[] {SqlMode.DEFAULT, new SqlMode(true, false), new SqlMode(false, true)}) {
            Classification c = classifier.classify(sql, mode);
            assertThat(c.kind()).isNotNull();
            assertThat(c.statementCount()).isGreaterThanOrEqualTo(0);
            if (c.readOnly()) {
                assertThat(WriteKeywordOracle.find(sql, mode.noBackslashEscapes(), mode.ansiQuotes()))
                        .as("read-only but has a write keyword (%s): %s", mode, shown).isNull();
                assertThat(c.statementCount()).as(shown).isEqualTo(1);
                assertThat(c.kind()).as(shown).isIn(READ_KINDS);
                assertThat(c.sessionEffects()).as(shown).isEmpty();
            }
            readOnly |= c.readOnly() && mode == SqlMode.DEFAULT;
            String normalized = digest.normalize(sql, mode);
            assertThat(normalized.length()).isLessThanOrEqualTo(512);
            assertThat(digest.fingerprint(sql, mode)).as(shown).isEqualTo(Digest.hash(normalized));
            String redacted = Redactor.redact(sql, mode);
            if (redacted != sql) {
                assertThat(redacted).as(shown).contains("'***'");
            }
        }
        byte[] utf8 = sql.getBytes(StandardCharsets.UTF_8);
        Classification fromBytes = classifier.classify(utf8, 0, utf8.length, StandardCharsets.UTF_8, SqlMode.DEFAULT);
        boolean wellFormed = sql.equals(new String(utf8, StandardCharsets.UTF_8));
        if (wellFormed) {
            assertThat(fromBytes.kind()).as(shown).isEqualTo(classifier.classify(sql).kind());
            assertThat(fromBytes.readOnly()).as(shown).isEqualTo(readOnly);
            assertThat(digest.fingerprint(utf8, 0, utf8.length, StandardCharsets.UTF_8, SqlMode.DEFAULT))
                    .as(shown).isEqualTo(digest.fingerprint(sql));
        }
        return readOnly;
    }

    private static String randomText(Random random) {
        StringBuilder sb = new StringBuilder();
        int parts = random.nextInt(12);
        for (int i = 0; i < parts; i++) {
            if (random.nextInt(3) == 0) {
                sb.append((char) random.nextInt(128));
            } else {
                sb.append(FRAGMENTS[random.nextInt(FRAGMENTS.length)]);
            }
            if (random.nextBoolean()) {
                sb.append(' ');
            }
        }
        return sb.toString();
    }

    private static String mutate(Random random, String sql) {
        StringBuilder sb = new StringBuilder(sql);
        int edits = 1 + random.nextInt(3);
        for (int e = 0; e < edits; e++) {
            int at = sb.isEmpty() ? 0 : random.nextInt(sb.length() + 1);
            switch (random.nextInt(5)) {
                case 0 -> sb.insert(at, FRAGMENTS[random.nextInt(FRAGMENTS.length)]);
                case 1 -> sb.insert(at, ' ' + FRAGMENTS[random.nextInt(FRAGMENTS.length)] + ' ');
                case 2 -> {
                    int end = Math.min(sb.length(), at + random.nextInt(8));
                    sb.delete(at, end);
                }
                case 3 -> {
                    if (at < sb.length()) {
                        char c = sb.charAt(at);
                        sb.setCharAt(at, Character.isUpperCase(c) ? Character.toLowerCase(c) : Character.toUpperCase(c));
                    }
                }
                default -> sb.insert(at, (char) random.nextInt(0x3000));
            }
        }
        return sb.toString();
    }

    private static String splice(Random random) {
        String a = SEEDS.get(random.nextInt(SEEDS.size()));
        String b = SEEDS.get(random.nextInt(SEEDS.size()));
        return a.substring(0, random.nextInt(a.length() + 1)) + b.substring(random.nextInt(b.length() + 1));
    }

    @Test
    void pathologicalInputsTakeLinearTime() {
        String[] units = {"(", ")", "'", "/*", "*/", "--", "-- \n", "@@", "@", "/*!", "\\'", "`", "IN (1,", "VALUES (1),",
            "a.", "0x", ";", "sluice:", "SET @x = 1, ", "WITH c AS (SELECT 1), "};
        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
            for (String unit : units) {
                String sql = "SELECT " + unit.repeat(100_000 / unit.length());
                classifier.classify(sql);
                digest.normalize(sql);
                Redactor.redact(sql);
            }
        });
    }
}
