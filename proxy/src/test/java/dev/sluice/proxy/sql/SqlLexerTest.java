package dev.sluice.proxy.sql;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SqlLexerTest {

    /** Each token as "TYPE text". */
    static List<String> tokens(String sql, boolean noBackslashEscapes, boolean ansiQuotes) {
        SqlLexer lexer = new SqlLexer();
        lexer.reset(sql, noBackslashEscapes, ansiQuotes, true);
        List<String> out = new ArrayList<>();
        for (TokenType t = lexer.next(); t != TokenType.END; t = lexer.next()) {
            out.add(t + " " + sql.substring(lexer.start(), lexer.end()));
        }
        return out;
    }

    static List<String> tokens(String sql) {
        return tokens(sql, false, false);
    }

    private static SqlLexer lexAll(String sql) {
        SqlLexer lexer = new SqlLexer();
        lexer.reset(sql, false, false, true);
        while (lexer.next() != TokenType.END) {
            assertThat(lexer.end()).isGreaterThanOrEqualTo(lexer.start());
        }
        return lexer;
    }

    @Test
    void splitsASimpleSelect() {
        assertThat(tokens("SELECT c FROM sbtest1 WHERE id=?")).containsExactly(
                "WORD SELECT", "WORD c", "WORD FROM", "WORD sbtest1", "WORD WHERE", "WORD id", "OPERATOR =",
                "PLACEHOLDER ?");
    }

    @Test
    void stringsTakeBackslashEscapesAndDoubledQuotes() {
        assertThat(tokens("'it''s' 'a\\'b' \"x\\\"y\" 'end'")).containsExactly(
                "STRING 'it''s'", "STRING 'a\\'b'", "STRING \"x\\\"y\"", "STRING 'end'");
    }

    @Test
    void noBackslashEscapesEndsTheStringAtTheQuoteAfterABackslash() {
        assertThat(tokens("'a\\' , 'b'", true, false)).containsExactly("STRING 'a\\'", "COMMA ,", "STRING 'b'");
        assertThat(tokens("'a\\' , 'b'", false, false)).containsExactly("STRING 'a\\' , '", "BIT_NUMBER b'");
    }

    @Test
    void ansiQuotesMakeDoubleQuotesAnIdentifier() {
        assertThat(tokens("\"my col\" = \"x\"\"y\"", false, true))
                .containsExactly("QUOTED_IDENTIFIER \"my col\"", "OPERATOR =", "QUOTED_IDENTIFIER \"x\"\"y\"");
    }

    @Test
    void backquotedIdentifiersDoubleTheirQuoteAndIgnoreBackslashes() {
        assertThat(tokens("`a``b` `c\\` x")).containsExactly("QUOTED_IDENTIFIER `a``b`", "QUOTED_IDENTIFIER `c\\`",
                "WORD x");
    }

    @Test
    void commentsAreSkipped() {
        assertThat(tokens("SELECT /* a; b */ 1 # tail ; x\n, 2 -- more ;\n, 3")).containsExactly(
                "WORD SELECT", "NUMBER 1", "COMMA ,", "NUMBER 2", "COMMA ,", "NUMBER 3");
    }

    @Test
    void doubleDashNeedsWhitespaceOrControlAfterIt() {
        assertThat(tokens("1--1")).containsExactly("NUMBER 1", "OPERATOR -", "OPERATOR -", "NUMBER 1");
        assertThat(tokens("1 --\t1")).containsExactly("NUMBER 1");
        assertThat(tokens("1 --\u00011")).containsExactly("NUMBER 1");
        assertThat(tokens("1 --")).containsExactly("NUMBER 1");
    }

    @Test
    void executableCommentsAreCode() {
        assertThat(tokens("SELECT 1 /*! FOR UPDATE */")).containsExactly(
                "WORD SELECT", "NUMBER 1", "WORD FOR", "WORD UPDATE");
        assertThat(tokens("/*!40101 SET NAMES utf8 */;")).containsExactly(
                "WORD SET", "WORD NAMES", "WORD utf8", "SEMICOLON ;");
        assertThat(tokens("/*M!100100 SELECT*/ 2")).containsExactly("WORD SELECT", "NUMBER 2");
        assertThat(tokens("/*!1 x*/")).containsExactly("NUMBER 1", "WORD x");
        assertThat(tokens("/*+ hint */ a /*!*/ b")).containsExactly("WORD a", "WORD b");
    }

    @Test
    void versionGatedCommentsCanBeReadAsComments() {
        SqlLexer lexer = new SqlLexer();
        lexer.reset("/*!50100 FOR UPDATE */ x /*! y */", false, false, false);
        assertThat(lexer.next()).isEqualTo(TokenType.WORD);
        assertThat(lexer.start()).isEqualTo(23);
        assertThat(lexer.next()).isEqualTo(TokenType.WORD);
        assertThat(lexer.next()).isEqualTo(TokenType.END);
        assertThat(lexer.versionedComment()).isTrue();
    }

    @Test
    void aStringInsideAnExecutableCommentHidesItsEnd() {
        assertThat(tokens("/*! '*/' */ x")).containsExactly("STRING '*/'", "WORD x");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '~', quoteCharacter = '"', value = {
        "12~NUMBER 12", "1.5~NUMBER 1.5", ".5~NUMBER .5", "1e5~NUMBER 1e5", "1.5E-3~NUMBER 1.5E-3",
        "1.~NUMBER 1.", "0x1F~HEX_NUMBER 0x1F", "X'1f'~HEX_NUMBER X'1f'", "x''~HEX_NUMBER x''",
        "0b101~BIT_NUMBER 0b101", "b'01'~BIT_NUMBER b'01'", "N'abc'~STRING N'abc'", "1abc~WORD 1abc",
        "0x1G~WORD 0x1G", "0x~WORD 0x", "0b2~WORD 0b2", "1else~WORD 1else", "?~PLACEHOLDER ?",
        "@x~USER_VARIABLE @x", "@a.b$c~USER_VARIABLE @a.b$c", "@`x y`~USER_VARIABLE @`x y`",
        "@'x'~USER_VARIABLE @'x'", "@@x~SYSTEM_VARIABLE @@x",
        "@@session.sql_mode~SYSTEM_VARIABLE @@session.sql_mode", "@@GLOBAL.`x`~SYSTEM_VARIABLE @@GLOBAL.`x`",
        ":=~ASSIGN :=", "<=>~OPERATOR <=>", "->>~OPERATOR ->>", "->~OPERATOR ->", "!=~OPERATOR !=",
        "<>~OPERATOR <>", "&&~OPERATOR &&", "||~OPERATOR ||", "café~WORD café", "ñame_1$~WORD ñame_1$",
        "_utf8mb4~WORD _utf8mb4"})
    void lexesOneToken(String sql, String token) {
        assertThat(tokens(sql)).containsExactly(token);
    }

    @Test
    void aDotAfterANameSeparatesNameParts() {
        assertThat(tokens("t.5c")).containsExactly("WORD t", "DOT .", "WORD 5c");
        assertThat(tokens("t .5")).containsExactly("WORD t", "NUMBER .5");
        assertThat(tokens("`db`.`t`")).containsExactly("QUOTED_IDENTIFIER `db`", "DOT .", "QUOTED_IDENTIFIER `t`");
    }

    @Test
    void aUserAtHostIsAStringThenAVariableToken() {
        assertThat(tokens("'u'@'localhost'")).containsExactly("STRING 'u'", "USER_VARIABLE @'localhost'");
    }

    @Test
    void strayAtSignsAreOperators() {
        assertThat(tokens("@ @@ @@.")).containsExactly("OPERATOR @", "OPERATOR @@", "OPERATOR @@", "DOT .");
    }

    @Test
    void trailingNulBytesAndWhitespaceAreIgnored() {
        assertThat(tokens("SELECT 1\0")).containsExactly("WORD SELECT", "NUMBER 1");
        assertThat(tokens("SELECT 1 \0\0 \n")).containsExactly("WORD SELECT", "NUMBER 1");
        assertThat(tokens("SELECT \0 1")).containsExactly("WORD SELECT", "OPERATOR \0", "NUMBER 1");
    }

    @Test
    void reportsWhatIsLeftOpen() {
        assertThat(lexAll("SELECT 'abc").unterminated()).isTrue();
        assertThat(lexAll("SELECT `abc").unterminated()).isTrue();
        assertThat(lexAll("SELECT 1 /* abc").unterminated()).isTrue();
        assertThat(lexAll("SELECT 1 /*! abc").unterminated()).isTrue();
        assertThat(lexAll("SELECT x'12").unterminated()).isTrue();
        assertThat(lexAll("SELECT 'a\\").unterminated()).isTrue();
        assertThat(lexAll("SELECT 'abc' /* c */ -- x").unterminated()).isFalse();
    }

    @Test
    void reportsBackslashesInsideQuotes() {
        assertThat(lexAll("SELECT 'a\\nb'").backslashInQuote()).isTrue();
        assertThat(lexAll("SELECT `a\\b`, 1 \\ 2").backslashInQuote()).isFalse();
    }

    @Test
    void findsRoutingHintsInCommentsOnly() {
        assertThat(lexAll("/* sluice:replica */ SELECT 1").hints()).isEqualTo(CommentSkipper.HINT_REPLICA);
        assertThat(lexAll("SELECT 1 -- SLUICE:PRIMARY").hints()).isEqualTo(CommentSkipper.HINT_PRIMARY);
        assertThat(lexAll("SELECT 1 # app=x sluice:replica, more").hints()).isEqualTo(CommentSkipper.HINT_REPLICA);
        assertThat(lexAll("/*+ sluice:primary */ SELECT /* sluice:replica */ 1").hints())
                .isEqualTo(CommentSkipper.HINT_PRIMARY | CommentSkipper.HINT_REPLICA);
        assertThat(lexAll("SELECT '/* sluice:replica */'").hints()).isZero();
        assertThat(lexAll("/*! sluice:replica */ SELECT 1").hints()).isZero();
        assertThat(lexAll("/* xsluice:replica */ SELECT 1").hints()).isZero();
        assertThat(lexAll("/* sluice:replicas */ SELECT 1").hints()).isZero();
        assertThat(lexAll("/* sluice:replica").hints()).isEqualTo(CommentSkipper.HINT_REPLICA);
    }
}
