package dev.sluice.proxy.capture;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PlaceholdersTest {

    private static String expand(String sql, int count) {
        return Placeholders.expand(sql, count, (out, i) -> out.append('<').append(i).append('>'));
    }

    @Test
    void replacesPlaceholdersOutsideQuotesAndComments() {
        assertThat(expand("SELECT ?, '?', \"?\", `?`, 'it''s ?', 'a\\'?' FROM t WHERE a=? -- ?\n AND b=? # ?\n"
                + "/* ? */ AND c IN (?)", 4))
                .isEqualTo("SELECT <0>, '?', \"?\", `?`, 'it''s ?', 'a\\'?' FROM t WHERE a=<1> -- ?\n AND b=<2> # ?\n"
                        + "/* ? */ AND c IN (<3>)");
    }

    @Test
    void executableCommentsAreCode() {
        assertThat(expand("SELECT /*!50000 ? */ 1", 1)).isEqualTo("SELECT /*!50000 <0> */ 1");
    }

    @Test
    void aCountThatDoesNotMatchGivesNothing() {
        assertThat(expand("SELECT ?", 2)).isNull();
        assertThat(expand("SELECT ?, ?", 1)).isNull();
        assertThat(expand("SELECT '?", 1)).isNull();
        assertThat(expand("SELECT 1", 0)).isEqualTo("SELECT 1");
    }
}
