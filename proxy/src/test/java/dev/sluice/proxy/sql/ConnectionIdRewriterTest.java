package dev.sluice.proxy.sql;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ConnectionIdRewriterTest {

    private static String rewrite(String sql) {
        return ConnectionIdRewriter.rewrite(sql, 42, SqlMode.DEFAULT);
    }

    /** A select item as the rewrite writes it: the id typed as the function's result, named as the call was written. */
    private static String item(long id, String call) {
        return "CAST(" + id + " AS UNSIGNED) AS `" + call + "`";
    }

    @Test
    void aSelectItemOfItsOwnKeepsItsColumnName() {
        assertThat(rewrite("SELECT CONNECTION_ID()")).isEqualTo("SELECT " + item(42, "CONNECTION_ID()"));
        assertThat(rewrite("select connection_id();")).isEqualTo("select " + item(42, "connection_id()") + ";");
        assertThat(rewrite("SELECT CONNECTION_ID( ), 1")).isEqualTo("SELECT " + item(42, "CONNECTION_ID( )") + ", 1");
        assertThat(rewrite("SELECT 1, CONNECTION_ID() FROM dual"))
                .isEqualTo("SELECT 1, " + item(42, "CONNECTION_ID()") + " FROM dual");
        assertThat(rewrite("SELECT DISTINCT CONNECTION_ID() INTO @id"))
                .isEqualTo("SELECT DISTINCT " + item(42, "CONNECTION_ID()") + " INTO @id");
        assertThat(rewrite("SELECT * FROM (SELECT CONNECTION_ID()) t"))
                .isEqualTo("SELECT * FROM (SELECT " + item(42, "CONNECTION_ID()") + ") t");
        assertThat(rewrite("SELECT CONNECTION_ID() UNION SELECT 1"))
                .isEqualTo("SELECT " + item(42, "CONNECTION_ID()") + " UNION SELECT 1");
    }

    @Test
    void anAliasedItemOrAnyOtherUseGetsTheNumber() {
        assertThat(rewrite("SELECT CONNECTION_ID() AS id")).isEqualTo("SELECT 42 AS id");
        assertThat(rewrite("SELECT CONNECTION_ID() id")).isEqualTo("SELECT 42 id");
        assertThat(rewrite("SELECT CONNECTION_ID() `id`")).isEqualTo("SELECT 42 `id`");
        assertThat(rewrite("SELECT CONNECTION_ID() + 1")).isEqualTo("SELECT 42 + 1");
        assertThat(rewrite("SELECT (CONNECTION_ID())")).isEqualTo("SELECT (42)");
        assertThat(rewrite("SELECT a FROM t WHERE id = CONNECTION_ID() ORDER BY a"))
                .isEqualTo("SELECT a FROM t WHERE id = 42 ORDER BY a");
        assertThat(rewrite("INSERT INTO t VALUES (1, CONNECTION_ID())")).isEqualTo("INSERT INTO t VALUES (1, 42)");
        assertThat(rewrite("SET @me = CONNECTION_ID()")).isEqualTo("SET @me = 42");
        assertThat(rewrite("KILL QUERY CONNECTION_ID()")).isEqualTo("KILL QUERY 42");
        assertThat(rewrite("SELECT CONCAT('id ', CONNECTION_ID())")).isEqualTo("SELECT CONCAT('id ', 42)");
    }

    @Test
    void everyStatementOfAMultiStatementIsRewritten() {
        assertThat(rewrite("SELECT CONNECTION_ID(); DO CONNECTION_ID()"))
                .isEqualTo("SELECT " + item(42, "CONNECTION_ID()") + "; DO 42");
    }

    @Test
    void stringsCommentsAndNamesAreLeftAlone() {
        assertThat(rewrite("SELECT 'CONNECTION_ID()'")).isNull();
        assertThat(rewrite("SELECT \"CONNECTION_ID()\"")).isNull();
        assertThat(rewrite("SELECT 1 /* CONNECTION_ID() */")).isNull();
        assertThat(rewrite("SELECT connection_id FROM t")).isNull();
        assertThat(rewrite("SELECT db.CONNECTION_ID()")).isNull();
        assertThat(rewrite("PREPARE s FROM 'SELECT CONNECTION_ID()'")).isNull();
    }

    @Test
    void aTextThatAlsoReadsBackendThreadIdsComparesThemWithTheBackendsOwn() {
        assertThat(rewrite("SELECT IS_USED_LOCK('l') = CONNECTION_ID()")).isNull();
        assertThat(rewrite("SELECT * FROM information_schema.processlist WHERE id = CONNECTION_ID()")).isNull();
        assertThat(rewrite("SELECT * FROM information_schema.`PROCESSLIST` WHERE id = CONNECTION_ID()")).isNull();
        assertThat(rewrite("SELECT trx_id FROM information_schema.INNODB_TRX"
                + " WHERE trx_mysql_thread_id = CONNECTION_ID()")).isNull();
        assertThat(rewrite("SELECT 'PROCESSLIST', CONNECTION_ID()"))
                .isEqualTo("SELECT 'PROCESSLIST', " + item(42, "CONNECTION_ID()"));
    }

    @Test
    void definitionsOfStoredCodeAndViewsKeepTheirText() {
        assertThat(rewrite("CREATE VIEW v AS SELECT CONNECTION_ID()")).isNull();
        assertThat(rewrite("CREATE PROCEDURE p() BEGIN SELECT CONNECTION_ID(); SELECT CONNECTION_ID(); END")).isNull();
        assertThat(rewrite("ALTER EVENT e DO INSERT INTO t VALUES (CONNECTION_ID())")).isNull();
        assertThat(rewrite("SELECT CONNECTION_ID(); CREATE VIEW v AS SELECT CONNECTION_ID()"))
                .isEqualTo("SELECT " + item(42, "CONNECTION_ID()") + "; CREATE VIEW v AS SELECT CONNECTION_ID()");
    }

    @Test
    void aCallWhoseStringsEndDependsOnTheSqlModeIsLeftAlone() {
        // With backslash escapes the string is 'a\' CONNECTION_ID() ...', without them it ends after the backslash.
        assertThat(rewrite("SELECT 'a\\', CONNECTION_ID(), 'b'")).isNull();
        assertThat(rewrite("SELECT 'a\\'', CONNECTION_ID()")).isNull();
        // Two backslashes end the string in the same place either way.
        assertThat(rewrite("SELECT 'a\\\\', CONNECTION_ID()"))
                .isEqualTo("SELECT 'a\\\\', " + item(42, "CONNECTION_ID()"));
        assertThat(rewrite("SELECT CONNECTION_ID(), 'a\\n'"))
                .isEqualTo("SELECT " + item(42, "CONNECTION_ID()") + ", 'a\\n'");
    }

    @Test
    void bytesComeBackInTheirCharset() {
        assertThat(rewriteBytes("SELECT 'é', CONNECTION_ID()", StandardCharsets.UTF_8))
                .isEqualTo("SELECT 'é', " + item(7, "CONNECTION_ID()"));
        // 0x5C, a backslash in ASCII, is the second byte of this character: read in place it would escape the quote.
        assertThat(rewriteBytes("SELECT 'ソ', CONNECTION_ID()", Charset.forName("Shift_JIS")))
                .isEqualTo("SELECT 'ソ', " + item(7, "CONNECTION_ID()"));
        byte[] sql = "SELECT CONNECTION_ID()".getBytes(StandardCharsets.UTF_8);
        assertThat(ConnectionIdRewriter.rewrite(sql, 0, 6, StandardCharsets.UTF_8, SqlMode.DEFAULT, 7)).isNull();
    }

    private static String rewriteBytes(String sql, Charset charset) {
        byte[] bytes = ("--\n" + sql).getBytes(charset);
        byte[] rewritten = ConnectionIdRewriter.rewrite(bytes, 3, bytes.length - 3, charset, SqlMode.DEFAULT, 7);
        return new String(rewritten, charset);
    }

    @Test
    void aBacktickInTheWrittenCallIsDoubledInTheAlias() {
        assertThat(rewrite("SELECT CONNECTION_ID(/*`*/)")).isEqualTo("SELECT " + item(42, "CONNECTION_ID(/*``*/)"));
    }
}
