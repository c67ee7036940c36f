package dev.sluice.proxy.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DigestTest {
    private final Digest digest = new Digest();

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '~', quoteCharacter = '"', value = {
        "SELECT c FROM sbtest1 WHERE id=42~SELECT c FROM sbtest1 WHERE id = ?",
        "select  c\\n\\tfrom sbtest1   where id = 7 -- trailing~SELECT c FROM sbtest1 WHERE id = ?",
        "SELECT * FROM t WHERE a IN (1,2,3) AND b NOT IN ('x')~SELECT * FROM t WHERE a IN (...) AND b NOT IN (...)",
        "SELECT * FROM t WHERE id IN (?, ?, ?)~SELECT * FROM t WHERE id IN (...)",
        "SELECT * FROM t WHERE (a, b) IN ((1, 2), (3, 4))~SELECT * FROM t WHERE (a, b) IN (...)",
        "SELECT * FROM t WHERE a IN (1, b, 2)~SELECT * FROM t WHERE a IN (?, b, ?)",
        "SELECT * FROM t WHERE a IN (SELECT b FROM u WHERE c = 1)~SELECT * FROM t WHERE a IN (SELECT b FROM u WHERE c = ?)",
        "INSERT INTO t VALUES (1, 'a'), (2, 'b'), (3, 'c')~INSERT INTO t VALUES (?, ?), ...",
        "INSERT INTO t VALUES (1, 'a')~INSERT INTO t VALUES (?, ?)",
        "INSERT INTO t (a, b) VALUE (1, NOW()), (2, NOW())~INSERT INTO t(a, b) VALUE (?, NOW()), ...",
        "INSERT INTO t VALUES (1, 2), (NOW(), 3), (4, 5)~INSERT INTO t VALUES (?, ?), (NOW(), ?), ...",
        "INSERT INTO t VALUES (1) ON DUPLICATE KEY UPDATE a = VALUES(a)~INSERT INTO t VALUES (?) ON DUPLICATE KEY UPDATE a = VALUES (a)",
        "INSERT INTO t VALUES (1), (2) AS new ON DUPLICATE KEY UPDATE a = new.a~INSERT INTO t VALUES (?), ... AS new ON DUPLICATE KEY UPDATE a = new.a",
        "VALUES ROW(1, 2), ROW(3, 4)~VALUES ROW(?, ?), ...",
        "SELECT -1, a - 1, a-1, (-2), NULL - 1, 5 * -3~SELECT ?, a - ?, a - ?, (?), NULL - ?, ? * ?",
        "SELECT x'1F', 0x1f, b'101', 0b11, 1e5, .5, N'x', _utf8mb4'abc', _binary 0xFF~SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?",
        "SELECT TRUE, FALSE, NULL, true~SELECT TRUE, FALSE, NULL, TRUE",
        "select count(*), sum(a), Max(b) from t group by c~SELECT COUNT(*), SUM(a), MAX(b) FROM t GROUP BY c",
        "SELECT `t1`.`col`, `select`, `my col`, `123`, `status`, `café` FROM `t1`~SELECT t1.col, `select`, `my col`, `123`, `status`, café FROM t1",
        "SELECT id FROM types JOIN status ON types.a = status.b~SELECT id FROM types JOIN status ON types.a = status.b",
        "SELECT @X, @@SESSION.SQL_MODE, @`Quoted`, @'q'~SELECT @x, @@session.sql_mode, @`Quoted`, @'q'",
        "SELECT 1; SELECT 2;~SELECT ?; SELECT ?",
        "SELECT 1;;~SELECT ?",
        ";SELECT 1~SELECT ?",
        "/*!40101 SET NAMES utf8 */;~SET NAMES utf8",
        "SELECT /*+ MAX_EXECUTION_TIME(1000) */ 1 /* sluice:replica */~SELECT ?",
        "SELECT * FROM t LIMIT 10, 20~SELECT * FROM t LIMIT ?, ?",
        "SELECT * FROM t LIMIT 10 OFFSET 5~SELECT * FROM t LIMIT ? OFFSET ?",
        "UPDATE sbtest1 SET k=k+1 WHERE id=5~UPDATE sbtest1 SET k = k + ? WHERE id = ?",
        "SELECT a->>'$.b', c := 1, d <=> e FROM t~SELECT a ->> ?, c := ?, d <=> e FROM t",
        "SELECT DATE '2020-01-01', INTERVAL 1 DAY~SELECT DATE ?, INTERVAL ? DAY",
        "CREATE USER 'u'@'localhost' IDENTIFIED BY 'pw'~CREATE USER ?@? IDENTIFIED BY ?",
        "GRANT ALL ON db.* TO app@localhost~GRANT ALL ON db.* TO app@localhost",
        "CREATE TABLE `t1` (intcol1 INT(32) ,charcol1 VARCHAR(128))~CREATE TABLE t1(intcol1 INT(?), charcol1 VARCHAR(?))",
        "select 'it''s', \"a \\\" b\"~SELECT ?, ?",
        "SELECT 'unterminated~SELECT ?",
        "~",
        "  /* nothing */ ~"})
    void normalizes(String sql, String normalized) {
        String text = sql == null ? "" : sql.replace("\\n", "\n").replace("\\t", "\t");
        String want = normalized == null ? "" : normalized;
        assertThat(digest.normalize(text)).isEqualTo(want);
        assertThat(digest.fingerprint(text)).isEqualTo(Digest.hash(want));
    }

    @Test
    void mysqlslapStatementsLoseTheirTrailingNulAndLiterals() {
        String a = "INSERT INTO t1 VALUES (964445884,'DPh7kD1E6f4MMQk1ioopsoIIcoD83DD8Wu7689K6oHTAjD3Hts6lYGv8x9G0EL0k"
                + "87q8G2ExJjz2o3KhnIJBbEJYFROTpO5pNvxgyBT9nSCbNO9AiKL9QYhi0x3hL9')\0";
        String b = "INSERT INTO t1 VALUES (1804289383,'mxvtvmC9127qJNm06sGB8R92q2j7vTiiITRDGXM9ZLzkdekbWtmXKwZ2qG1llkR"
                + "w5m9DHOFilEREk3q7oce8O3BEJC0woJsm6uzFAEynLH2xCsw1KQ1lT4zg9rdxBL')\0";
        assertThat(digest.normalize(a)).isEqualTo("INSERT INTO t1 VALUES (?, ?)");
        assertThat(digest.fingerprint(a)).isEqualTo(digest.fingerprint(b));
        assertThat(digest.normalize("SELECT intcol1,charcol1 FROM t1\0")).isEqualTo("SELECT intcol1, charcol1 FROM t1");
        assertThat(digest.normalize("INSERT INTO t1 VALUES (NULL,uuid(),1,'x')\0"))
                .isEqualTo("INSERT INTO t1 VALUES (NULL, UUID(), ?, ?)");
    }

    @Test
    void statementsThatDifferOnlyInLiteralsShareADigest() {
        long one = digest.fingerprint("SELECT c FROM sbtest1 WHERE id=1");
        assertThat(digest.fingerprint("select c from sbtest1 where id = 999 /* x */")).isEqualTo(one);
        assertThat(digest.fingerprint("SELECT c FROM sbtest1 WHERE id=?")).isEqualTo(one);
        assertThat(digest.fingerprint("SELECT c FROM sbtest2 WHERE id=1")).isNotEqualTo(one);
        assertThat(digest.fingerprint("SELECT d FROM sbtest1 WHERE id=1")).isNotEqualTo(one);
        assertThat(digest.fingerprint("SELECT * FROM t WHERE id IN (1)"))
                .isEqualTo(digest.fingerprint("SELECT * FROM t WHERE id IN (1, 2, 3, 4)"));
    }

    @Test
    void connectorJInitQuery() {
        String init = "/* mysql-connector-j-9.5.0 (Revision: a7b3c94f50efbddb9f0dd69b3e0d1aaa25305cd6) */SELECT  "
                + "@@session.auto_increment_increment AS auto_increment_increment, @@character_set_client AS "
                + "character_set_client, @@license AS license, @@tx_isolation AS transaction_isolation";
        assertThat(digest.normalize(init)).isEqualTo("SELECT @@session.auto_increment_increment AS "
                + "auto_increment_increment, @@character_set_client AS character_set_client, @@license AS license, "
                + "@@tx_isolation AS transaction_isolation");
    }

    @Test
    void hashIsFnv1aOverUtf8ThenMixed() {
        assertThat(Digest.hash("")).isEqualTo(reference(new byte[0]));
        for (String text : new String[] {"SELECT ?", "SELECT café, 名前, 😀 FROM t", "\uD800 lone", "x\uDC00"}) {
            assertThat(Digest.hash(text)).as(text).isEqualTo(reference(text.getBytes(StandardCharsets.UTF_8)));
        }
    }

    /** A straightforward FNV-1a 64 over bytes followed by MurmurHash3's fmix64. */
    private static long reference(byte[] bytes) {
        long h = 0xcbf29ce484222325L;
        for (byte b : bytes) {
            h ^= b & 0xFF;
            h *= 0x100000001b3L;
        }
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        return h ^ (h >>> 33);
    }

    @Test
    void hexIsSixteenUpperCaseDigits() {
        assertThat(Digest.hex(0)).isEqualTo("0000000000000000");
        assertThat(Digest.hex(0xABCL)).isEqualTo("0000000000000ABC");
        assertThat(Digest.hex(-1L)).isEqualTo("FFFFFFFFFFFFFFFF");
        assertThat(Digest.hex(digest.fingerprint("SELECT 1"))).matches("[0-9A-F]{16}");
    }

    @Test
    void longTextIsCutAndMarked() {
        Digest small = new Digest(32);
        String text = small.normalize("SELECT aaaaaaaaaa, bbbbbbbbbb, cccccccccc, dddddddddd FROM t");
        assertThat(text).hasSize(32).endsWith("...").startsWith("SELECT aaaaaaaaaa, bbbbbbbbbb");
        assertThat(small.fingerprint("SELECT aaaaaaaaaa, bbbbbbbbbb, cccccccccc, dddddddddd FROM t"))
                .isEqualTo(Digest.hash(text));
        assertThatThrownBy(() -> new Digest(3)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("maxLength: 3");
    }

    @Test
    void aHugeInListCollapsesEvenPastTheMaximumLength() {
        StringBuilder sql = new StringBuilder("SELECT * FROM t WHERE id IN (");
        for (int i = 0; i < 100_000; i++) {
            sql.append(i).append(',');
        }
        sql.append("0)");
        assertThat(digest.normalize(sql)).isEqualTo("SELECT * FROM t WHERE id IN (...)");
    }

    @Test
    void bytesGiveTheSameDigestAsText() {
        String latin = "SELECT `naïve`, café FROM `tâble` WHERE x = 'é'\0";
        byte[] utf8 = latin.getBytes(StandardCharsets.UTF_8);
        assertThat(digest.normalize(utf8, 0, utf8.length, StandardCharsets.UTF_8, SqlMode.DEFAULT))
                .isEqualTo("SELECT naïve, café FROM tâble WHERE x = ?");
        assertThat(digest.fingerprint(utf8, 0, utf8.length, StandardCharsets.UTF_8, SqlMode.DEFAULT))
                .isEqualTo(digest.fingerprint(latin));
        String cjk = "SELECT `名前`, 表 FROM `表格` WHERE x = '值'";
        Charset gbk = Charset.forName("GBK");
        byte[] bytes = cjk.getBytes(gbk);
        assertThat(digest.normalize(bytes, 0, bytes.length, gbk, SqlMode.DEFAULT))
                .isEqualTo("SELECT 名前, 表 FROM 表格 WHERE x = ?");
        assertThat(digest.fingerprint(bytes, 0, bytes.length, gbk, SqlMode.DEFAULT)).isEqualTo(digest.fingerprint(cjk));
    }

    @Test
    void sqlModeChangesWhereStringsEnd() {
        assertThat(digest.normalize("SELECT \"a\" FROM t", new SqlMode(false, true))).isEqualTo("SELECT a FROM t");
        assertThat(digest.normalize("SELECT 'a\\', b", new SqlMode(true, false))).isEqualTo("SELECT ?, b");
    }
}
