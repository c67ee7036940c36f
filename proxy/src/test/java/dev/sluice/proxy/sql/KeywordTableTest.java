package dev.sluice.proxy.sql;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.EnumSet;
import org.junit.jupiter.api.Test;

class KeywordTableTest {

    private static int lookup(String word) {
        return KeywordTable.lookup(word, 0, word.length());
    }

    @Test
    void everyKeywordConstantHasItsOrdinalAsId() {
        for (Keyword k : Keyword.values()) {
            assertThat(lookup(k.name())).as(k.name()).isEqualTo(k.ordinal());
            assertThat(lookup(k.name().toLowerCase(java.util.Locale.ROOT))).as(k.name()).isEqualTo(k.ordinal());
            assertThat(Keyword.byId(k.ordinal())).isSameAs(k);
            assertThat(KeywordTable.word(k.ordinal())).isEqualTo(k.name());
        }
        assertThat(Keyword.byId(-1)).isNull();
        assertThat(Keyword.byId(Keyword.count())).isNull();
    }

    @Test
    void lookupIsCaseInsensitiveAndExact() {
        assertThat(lookup("SeLeCt")).isEqualTo(Keyword.SELECT.ordinal());
        assertThat(lookup("SELECTX")).isEqualTo(-1);
        assertThat(lookup("SELEC")).isEqualTo(-1);
        assertThat(lookup("sbtest1")).isEqualTo(-1);
        assertThat(lookup("ſelect")).as("no Unicode case folding").isEqualTo(-1);
        assertThat(lookup("")).isEqualTo(-1);
        assertThat(lookup("x".repeat(100))).isEqualTo(-1);
        assertThat(KeywordTable.lookup("xx SELECT", 3, 9)).isEqualTo(Keyword.SELECT.ordinal());
    }

    @Test
    void theLexerHashesWordsAsTheTableDoes() {
        SqlLexer lexer = new SqlLexer();
        String sql = "select Count wHeRe sbtest1 名前 _utf8mb4 1abc";
        lexer.reset(sql, false, false, true);
        for (TokenType t = lexer.next(); t != TokenType.END; t = lexer.next()) {
            int expected = KeywordTable.hashOf(sql, lexer.start(), lexer.end());
            assertThat(lexer.wordHash()).as(sql.substring(lexer.start(), lexer.end())).isEqualTo(expected);
        }
    }

    @Test
    void flagsComeFromTheWordLists() {
        assertThat(KeywordTable.has(lookup("SELECT"), KeywordTable.RESERVED)).isTrue();
        assertThat(KeywordTable.has(lookup("STATUS"), KeywordTable.RESERVED)).isFalse();
        assertThat(KeywordTable.has(lookup("STATUS"), KeywordTable.KEYWORD)).isTrue();
        assertThat(KeywordTable.has(lookup("CONCAT"), KeywordTable.FUNCTION)).isTrue();
        assertThat(KeywordTable.has(lookup("IN"), KeywordTable.STRUCTURAL)).isTrue();
        assertThat(KeywordTable.has(lookup("NULL"), KeywordTable.VALUE)).isTrue();
        assertThat(KeywordTable.has(lookup("_UTF8MB4"), KeywordTable.INTRODUCER)).isTrue();
        assertThat(KeywordTable.has(lookup("_utf8mb4"), KeywordTable.KEYWORD)).isFalse();
        assertThat(KeywordTable.flags(-1)).isZero();
    }

    @Test
    void functionsWithEffectsAreFunctions() {
        for (Keyword k : EnumSet.range(Keyword.GET_LOCK, Keyword.SERVICE_RELEASE_LOCKS)) {
            assertThat(KeywordTable.has(k.ordinal(), KeywordTable.FUNCTION)).as(k.name()).isTrue();
        }
    }

    @Test
    void writeKeywordsAreNeitherPureFunctionsNorStructuralUnlessTheyAreFunctions() {
        for (String word : new String[] {"UPDATE", "DELETE", "CREATE", "DROP", "ALTER", "CALL", "LOAD", "LOCK"}) {
            assertThat(KeywordTable.has(lookup(word), KeywordTable.FUNCTION)).as(word).isFalse();
        }
        for (String word : new String[] {"INSERT", "REPLACE", "TRUNCATE"}) {
            assertThat(KeywordTable.has(lookup(word), KeywordTable.FUNCTION)).as(word + "()").isTrue();
        }
    }
}
