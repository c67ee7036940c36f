package dev.sluice.proxy.sql;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.proxy.sql.KillStatement.Form;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class KillStatementTest {

    private static KillStatement find(String sql) {
        return KillStatement.find(sql, SqlMode.DEFAULT);
    }

    private static KillStatement thread(String modifier, boolean query, long id) {
        return new KillStatement(Form.THREAD, modifier, query, id);
    }

    @Test
    void theFormsClientsSend() {
        // Connector/J's Statement.cancel() and query timeout, the mariadb client's Ctrl-C
        assertThat(find("KILL QUERY 42")).isEqualTo(thread("", true, 42));
        assertThat(find("KILL CONNECTION 7")).isEqualTo(thread("", false, 7));
        assertThat(find("kill 7")).isEqualTo(thread("", false, 7));
    }

    @Test
    void caseSpacingCommentsAndTheTrailingSemicolonDoNotMatter() {
        assertThat(find("  KILL  hard   CONNECTION 9 ; ")).isEqualTo(thread("HARD ", false, 9));
        assertThat(find("/* app */ Kill Soft Query 12")).isEqualTo(thread("SOFT ", true, 12));
        assertThat(find("KILL -- why\n QUERY # more\n 5;")).isEqualTo(thread("", true, 5));
        assertThat(find("/*!KILL QUERY 3*/")).isEqualTo(thread("", true, 3));
        assertThat(find("KILL QUERY 3\0")).isEqualTo(thread("", true, 3));
    }

    @Test
    void anIdTooLargeForALongIsReportedAsMariaDbDoes() {
        assertThat(find("KILL 18446744073709551617")).isEqualTo(thread("", false, Long.MAX_VALUE));
    }

    @Test
    void anIdThatIsNotANumberIsForTheServerToEvaluate() {
        assertThat(find("KILL @id").form()).isEqualTo(Form.EXPRESSION);
        assertThat(find("KILL QUERY 40 + 2").form()).isEqualTo(Form.EXPRESSION);
        assertThat(find("KILL (SELECT 1)").form()).isEqualTo(Form.EXPRESSION);
        assertThat(find("KILL '42'").form()).isEqualTo(Form.EXPRESSION);
        assertThat(find("KILL 0x2a").form()).isEqualTo(Form.EXPRESSION);
        assertThat(find("KILL 4.2").form()).isEqualTo(Form.EXPRESSION);
        assertThat(find("KILL QUERY").form()).isEqualTo(Form.EXPRESSION);
    }

    @Test
    void aKillAmongOtherStatementsIsNotRunAlone() {
        assertThat(find("KILL 1; DROP TABLE t").form()).isEqualTo(Form.AMONG_OTHERS);
        assertThat(find("SELECT 1; kill query 5").form()).isEqualTo(Form.AMONG_OTHERS);
    }

    @Test
    void killsThatNameNoThreadAndOtherStatementsAreNone() {
        assertThat(find("KILL USER app")).isNull();
        assertThat(find("KILL HARD QUERY ID 42")).isNull();
        assertThat(find("SELECT 'KILL 1'")).isNull();
        assertThat(find("SELECT kill FROM skills")).isNull();
        assertThat(find("/* KILL 1 */ SELECT 1")).isNull();
        assertThat(find("")).isNull();
    }

    @Test
    void bytesAreReadInTheGivenCharset() {
        byte[] sql = "xxKILL QUERY 42yy".getBytes(StandardCharsets.UTF_8);
        assertThat(KillStatement.find(sql, 2, 13, StandardCharsets.UTF_8, SqlMode.DEFAULT))
                .isEqualTo(thread("", true, 42));
        byte[] sjis = "KILL 5".getBytes(java.nio.charset.Charset.forName("Shift_JIS"));
        assertThat(KillStatement.find(sjis, 0, sjis.length, java.nio.charset.Charset.forName("Shift_JIS"),
                SqlMode.DEFAULT)).isEqualTo(thread("", false, 5));
    }
}
