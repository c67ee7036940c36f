package dev.sluice.proxy.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class TableQueryTest {

    private static final Table BACKENDS = new Table.Builder("backends").text("name").text("role").integer("queries")
            .decimal("p95_ms").integer("replication_lag_s")
            .row("primary", "primary", 100, 1.5, null)
            .row("replica1", "replica", 300, 0.75, 0)
            .row("replica2", "replica", 200, 2.25, 12)
            .build();

    private static Table run(String sql) {
        AdminTokens tokens = new AdminTokens(sql);
        tokens.expect("SELECT");
        return TableQuery.parseAfterSelect(tokens).apply(BACKENDS);
    }

    private static List<Object> column(Table table, String name) {
        int index = table.indexOf(name);
        return table.rows().stream().map(row -> row.get(index)).toList();
    }

    @Test
    void selectsWithWhereOrderAndLimit() {
        Table top = run("select name, queries from backends where role = 'REPLICA' order by queries desc limit 1");
        assertThat(top.columnNames()).containsExactly("name", "queries");
        assertThat(top.rows()).containsExactly(List.of("replica1", 300L));

        assertThat(column(run("SELECT * FROM `backends` WHERE queries >= 200 AND p95_ms < 2 ORDER BY name;"), "name"))
                .containsExactly("replica1");
        assertThat(column(run("SELECT name FROM backends WHERE name LIKE 'rep%' ORDER BY name DESC"), "name"))
                .containsExactly("replica2", "replica1");
        assertThat(column(run("SELECT name FROM backends WHERE replication_lag_s IS NULL"), "name"))
                .containsExactly("primary");
        assertThat(column(run("SELECT name FROM backends WHERE replication_lag_s IS NOT NULL AND name != \"replica1\""), "name"))
                .containsExactly("replica2");
        assertThat(column(run("SELECT name FROM backends ORDER BY queries LIMIT 1, 2"), "name"))
                .containsExactly("replica2", "replica1");
        assertThat(column(run("SELECT name FROM backends ORDER BY queries LIMIT 1 OFFSET 2 -- comment"), "name"))
                .containsExactly("replica1");
        assertThat(column(run("SELECT name FROM backends WHERE queries <> 100 AND queries > -1 /* x */"), "name"))
                .containsExactly("replica1", "replica2");
    }

    @Test
    void mistakesSayWhatWasExpected() {
        assertThatThrownBy(() -> run("SELECT nope FROM backends"))
                .isInstanceOf(AdminSqlException.class).hasMessageContaining("Unknown column 'nope' in table backends");
        assertThatThrownBy(() -> run("SELECT name FROM backends WHERE queries ~ 3"))
                .hasMessageContaining("found \"~\" where a comparison");
        assertThatThrownBy(() -> run("SELECT name FROM backends LIMIT x"))
                .hasMessageContaining("found \"x\" where a whole number was expected");
        assertThatThrownBy(() -> run("SELECT name FROM backends WHERE name = 'open"))
                .hasMessageContaining("unterminated '");
        assertThatThrownBy(() -> run("SELECT name backends"))
                .hasMessageContaining("where FROM was expected");
        assertThat(catchCode("SELECT nope FROM backends")).isEqualTo(1054);
        assertThat(catchCode("SELECT name FROM backends extra")).isEqualTo(1064);
    }

    private static int catchCode(String sql) {
        try {
            run(sql);
            return 0;
        } catch (AdminSqlException e) {
            return e.code();
        }
    }
}
