package dev.sluice.slap;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How two servers' answers are told apart, and what the report says of it. */
class ResultDifferenceTest {

    /** One result of the (id, v) rows given as "1:a" strings, "1:\\N" for a NULL v. */
    private static StatementResult rows(String... rows) {
        StatementResult.Builder answer = new StatementResult.Builder();
        answer.result(List.of("id", "v"), List.of("INT", "VARCHAR"));
        for (String row : rows) {
            String[] parts = row.split(":", -1);
            answer.row(new String[] {parts[0], parts[1].equals("\\N") ? null : parts[1]}, new boolean[2]);
        }
        answer.end();
        return answer.build();
    }

    private static StatementResult affected(long n, String... warnings) {
        StatementResult.Builder answer = new StatementResult.Builder();
        answer.affected(n);
        java.sql.SQLWarning first = null;
        for (String w : warnings) {
            java.sql.SQLWarning next = new java.sql.SQLWarning(w.substring(5), "01000", Integer.parseInt(w.substring(0, 4)));
            if (first == null) {
                first = next;
            } else {
                first.setNextWarning(next);
            }
        }
        answer.warnings(first);
        return answer.build();
    }

    @Test
    void theSameRowsInAnotherOrderDifferOnlyUnderOrderBy() {
        StatementResult a = rows("1:a", "2:b", "3:\\N");
        StatementResult b = rows("3:\\N", "1:a", "2:b");

        assertThat(ResultDifference.of(a, b, false)).isNull();
        ResultDifference ordered = ResultDifference.of(a, b, true);
        assertThat(ordered.orderOnly()).isTrue();
        assertThat(ordered.text()).isEqualTo("the same 3 rows in another order (the statement has ORDER BY); row 1:"
                + " A ('1', 'a'); B ('3', NULL)");
    }

    @Test
    void otherRowsAreShownByWhatTellsThemApart() {
        assertThat(ResultDifference.of(rows("1:a", "2:b"), rows("1:a", "2:c"), false).text())
                .isEqualTo("2 rows on both, other values; A ('2', 'b'); B ('2', 'c')");
        assertThat(ResultDifference.of(rows("1:a", "2:b"), rows("1:a"), false).text())
                .isEqualTo("rows: A 2; B 1; only on A: ('2', 'b'); only on B: none");
        // A NULL is not the text NULL.
        assertThat(ResultDifference.of(rows("1:\\N"), rows("1:NULL"), false).text()).isEqualTo("1 row on both, other"
                + " values; row 1: A ('1', NULL); B ('1', 'NULL')");
        assertThat(ResultDifference.of(rows("1:x"), rows("1:y"), true).text()).isEqualTo("1 row on both, other values;"
                + " row 1: A ('1', 'x'); B ('1', 'y')");
    }

    @Test
    void errorsAffectedRowsAndWarningsCompareByCode() {
        StatementResult tooLong = StatementResult.failed(new SQLException("Data too long for column 'v' at row 1",
                "22001", 1406));
        StatementResult truncated = affected(1, "1265 Data truncated for column 'v' at row 1");

        assertThat(ResultDifference.of(tooLong, truncated, false).text()).isEqualTo("A error 1406 (Data too long for"
                + " column 'v' at row 1); B OK, 1 affected, warnings [1265 Data truncated for column 'v' at row 1]");
        assertThat(ResultDifference.of(tooLong, StatementResult.failed(new SQLException("other words", "22001", 1406)),
                false)).as("the same code in other words").isNull();
        assertThat(ResultDifference.of(affected(1), affected(2), false).text()).isEqualTo("affected rows: A 1; B 2");
        assertThat(ResultDifference.of(truncated, affected(1), false).text()).isEqualTo("warnings: A [1265 Data"
                + " truncated for column 'v' at row 1]; B none");
        assertThat(ResultDifference.of(truncated, affected(1, "1265 other words"), false)).isNull();
        assertThat(ResultDifference.of(StatementResult.notRun("its prepare failed"), affected(1), false).text())
                .isEqualTo("A not run (its prepare failed); B OK, 1 affected");
    }

    @Test
    void columnTypesCount() {
        StatementResult.Builder wider = new StatementResult.Builder();
        wider.result(List.of("id", "v"), List.of("BIGINT", "VARCHAR"));
        wider.row(new String[] {"1", "a"}, new boolean[2]);
        wider.end();

        assertThat(ResultDifference.of(rows("1:a"), wider.build(), false).text())
                .isEqualTo("columns: A (id INT, v VARCHAR); B (id BIGINT, v VARCHAR)");
    }
}
