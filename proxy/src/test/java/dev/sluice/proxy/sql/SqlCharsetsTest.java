package dev.sluice.proxy.sql;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.Charset;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SqlCharsetsTest {

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(nullValues = "-", value = {
        "latin1, windows-1252", "LATIN1, windows-1252", "utf8mb4, UTF-8", "utf8, UTF-8", "utf8mb3, UTF-8",
        "ascii, US-ASCII", "binary, ISO-8859-1", "latin2, ISO-8859-2", "cp1251, windows-1251", "koi8r, KOI8-R",
        "cp866, IBM866", "sjis, Shift_JIS", "cp932, windows-31j", "ujis, EUC-JP", "euckr, EUC-KR", "gbk, GBK",
        "big5, Big5", "greek, ISO-8859-7", "no-such-set, UTF-8", "-, UTF-8", "'', UTF-8"})
    void namesAsTheServerReportsThem(String mysqlName, String java) {
        assertThat(SqlCharsets.forName(mysqlName)).isEqualTo(Charset.forName(java));
    }

    @ParameterizedTest(name = "collation {0}")
    @CsvSource({
        "8, windows-1252",   // latin1_swedish_ci, the old default
        "47, windows-1252",  // latin1_bin
        "33, UTF-8",         // utf8mb3_general_ci
        "192, UTF-8",        // utf8mb3_unicode_ci
        "45, UTF-8",         // utf8mb4_general_ci
        "224, UTF-8",        // utf8mb4_unicode_ci
        "255, UTF-8",        // MySQL 8's utf8mb4_0900_ai_ci
        "63, ISO-8859-1",    // binary
        "11, US-ASCII",      // ascii_general_ci
        "51, windows-1251",  // cp1251_general_ci
        "28, GBK",           // gbk_chinese_ci
        "0, UTF-8"})
    void collationsOfAHandshake(int id, String java) {
        assertThat(SqlCharsets.forCollation(id)).isEqualTo(Charset.forName(java));
    }
}
