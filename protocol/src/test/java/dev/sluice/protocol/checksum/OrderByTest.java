package dev.sluice.protocol.checksum;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class OrderByTest {

    @Test
    void anOrderByOfTheWholeStatementCounts() {
        assertThat(OrderBy.atTopLevel("SELECT a FROM t ORDER BY a")).isTrue();
        assertThat(OrderBy.atTopLevel("select a from t order\n  by a desc limit 3")).isTrue();
        assertThat(OrderBy.atTopLevel("SELECT a FROM t ORDER /* why */ BY a")).isTrue();
        assertThat(OrderBy.atTopLevel("(SELECT a FROM t) UNION (SELECT b FROM u) ORDER BY 1")).isTrue();
        assertThat(OrderBy.atTopLevel("SELECT `order` FROM t ORDER BY `order`")).isTrue();
    }

    @Test
    void oneInsideParenthesesStringsNamesOrCommentsDoesNot() {
        assertThat(OrderBy.atTopLevel("SELECT a FROM t")).isFalse();
        assertThat(OrderBy.atTopLevel("SELECT * FROM (SELECT a FROM t ORDER BY a LIMIT 5) x")).isFalse();
        assertThat(OrderBy.atTopLevel("SELECT a, ROW_NUMBER() OVER (ORDER BY a) FROM t")).isFalse();
        assertThat(OrderBy.atTopLevel("SELECT 'ORDER BY a' FROM t")).isFalse();
        assertThat(OrderBy.atTopLevel("SELECT 'it''s', \"x\\\" ORDER BY\" FROM t")).isFalse();
        assertThat(OrderBy.atTopLevel("SELECT `ORDER BY` FROM t")).isFalse();
        assertThat(OrderBy.atTopLevel("SELECT a FROM t -- ORDER BY a\n")).isFalse();
        assertThat(OrderBy.atTopLevel("SELECT a FROM t # ORDER BY a")).isFalse();
        assertThat(OrderBy.atTopLevel("SELECT a FROM t /* ORDER BY a */")).isFalse();
        assertThat(OrderBy.atTopLevel("SELECT a FROM t ORDER_BY")).isFalse();
        assertThat(OrderBy.atTopLevel("SELECT a FROM t WHERE b = 'ORDER' AND c = 'BY'")).isFalse();
        assertThat(OrderBy.atTopLevel(null)).isFalse();
    }
}
