package dev.sluice.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SqlTextTest {

    @Test
    void aStringEndsAtItsClosingQuotePastDoubledQuotesAndBackslashes() {
        String sql = "x = 'it''s \\' here' AND y";
        assertThat(SqlText.endOfQuoted(sql, 4, '\'')).isEqualTo(sql.indexOf(" AND"));
    }

    @Test
    void aBackslashEscapesNothingInAQuotedName() {
        String sql = "`a\\` + 1";
        assertThat(SqlText.endOfQuoted(sql, 0, '`')).isEqualTo(4);
    }

    @Test
    void anUnclosedQuoteRunsToTheEndEvenAfterATrailingBackslash() {
        assertThat(SqlText.endOfQuoted("'abc", 0, '\'')).isEqualTo(4);
        assertThat(SqlText.endOfQuoted("\"ab\\", 0, '"')).isEqualTo(4);
    }
}
