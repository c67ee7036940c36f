package dev.sluice.slap;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class WorkloadTest {

    private static Workload build(SlapOptions.Builder builder) {
        return Workload.build(builder.build().workload(), new RandomValues(new SplittableRandom(3)));
    }

    private static List<String> heads(List<Statement> statements) {
        return statements.stream().map(s -> s.sql().substring(0, s.sql().indexOf(' '))).toList();
    }

    @Test
    void mixedIsAnInsertThenSelectAndInsertAlternating() {
        Workload w = build(SlapOptions.builder().autoGenerateSql(true));
        assertThat(heads(w.queries())).containsExactly("INSERT", "SELECT", "INSERT", "SELECT", "INSERT", "SELECT",
                "INSERT", "SELECT", "INSERT", "SELECT", "INSERT");
        assertThat(w.queryCount()).isZero();
    }

    @Test
    void eachLoadTypeHasUniqueQueryNumberPlusOneStatements() {
        for (String type : List.of("read", "key", "write", "update")) {
            Workload w = build(SlapOptions.builder().autoGenerateSql(true).addAutoincrement(true).loadType(type)
                    .uniqueQueryNumber(4));
            assertThat(w.queries()).as(type).hasSize(5);
        }
        assertThat(heads(build(SlapOptions.builder().autoGenerateSql(true).loadType("read")).queries())).containsOnly("SELECT");
        assertThat(build(SlapOptions.builder().autoGenerateSql(true).addAutoincrement(true).loadType("key")).queries())
                .allMatch(s -> s.kind() == Statement.Kind.KEYED);
        assertThat(heads(build(SlapOptions.builder().autoGenerateSql(true).loadType("w")).queries())).containsOnly("INSERT");
        assertThat(heads(build(SlapOptions.builder().autoGenerateSql(true).loadType("update")).queries())).containsOnly("UPDATE");
        // Only the first letter counts; anything unknown is mixed.
        assertThat(heads(build(SlapOptions.builder().autoGenerateSql(true).loadType("bogus")).queries()))
                .startsWith("INSERT", "SELECT", "INSERT");
    }

    @Test
    void mixedSelectsAreKeyedWhenThereIsAnId() {
        Workload w = build(SlapOptions.builder().autoGenerateSql(true).addAutoincrement(true));
        assertThat(w.queries().get(1).kind()).isEqualTo(Statement.Kind.KEYED);
        assertThat(w.queries().get(0).kind()).isEqualTo(Statement.Kind.PLAIN);
    }

    @Test
    void valuesAreFixedWhenTheListIsBuilt() {
        Workload w = build(SlapOptions.builder().autoGenerateSql(true).loadType("write"));
        assertThat(w.queries().stream().map(Statement::sql).distinct()).hasSize(11);
        assertThat(w.queries().get(3).sql()).isEqualTo(w.queries().get(3).sql());
    }

    @Test
    void preloadIsTheCreatePlusWriteNumberMinusOneInsertsCycled() {
        Workload w = build(SlapOptions.builder().autoGenerateSql(true));
        List<Statement> setup = w.setupStatements();
        assertThat(setup).hasSize(100);
        assertThat(setup.get(0).kind()).isEqualTo(Statement.Kind.CREATE_TABLE);
        assertThat(heads(setup.subList(1, 100))).containsOnly("INSERT");
        assertThat(setup.subList(1, 100).stream().map(Statement::sql).distinct()).hasSize(10);
        assertThat(setup.get(11)).isEqualTo(setup.get(1));
        assertThat(build(SlapOptions.builder().autoGenerateSql(true).writeNumber(3)).setupStatements()).hasSize(3);
        assertThat(build(SlapOptions.builder().autoGenerateSql(true).writeNumber(0)).setupStatements()).isEmpty();
        // mysqlslap would loop forever with nothing to repeat; slap creates the table and stops.
        assertThat(build(SlapOptions.builder().autoGenerateSql(true).uniqueWriteNumber(0)).setupStatements()).hasSize(1);
    }

    @Test
    void userQueriesAreSplitAndCounted() {
        Workload w = build(SlapOptions.builder().query("select 1;select 2; select 3").delimiter(";"));
        assertThat(w.queries()).extracting(Statement::sql).containsExactly("select 1", "select 2", "select 3");
        assertThat(w.queryCount()).isEqualTo(3);
        assertThat(w.create()).isEmpty();
        Workload once = build(SlapOptions.builder().query("select 1"));
        assertThat(once.queryCount()).isEqualTo(1);
    }

    @Test
    void multiStatementsOnlyWhenAStatementHoldsASemicolon() {
        assertThat(build(SlapOptions.builder().autoGenerateSql(true)).hasMultiStatements()).isFalse();
        assertThat(build(SlapOptions.builder().query("select 1;select 2").delimiter(";")).hasMultiStatements()).isFalse();
        assertThat(build(SlapOptions.builder().query("select 1; select 2")).hasMultiStatements()).isTrue();
        assertThat(build(SlapOptions.builder().query("select 1").preQuery("set @a=1; set @b=2")).hasMultiStatements()).isTrue();
    }

    @Test
    void createWithEngineMarksTheFirstStatementAsTheTable() {
        Workload w = build(SlapOptions.builder().create("create table a(x int);insert into a values (1)").delimiter(";")
                .engines(EngineSpec.parseList("memory")));
        assertThat(w.setupStatements()).extracting(Statement::kind)
                .containsExactly(Statement.Kind.CREATE_TABLE, Statement.Kind.PLAIN);
        Workload noEngine = build(SlapOptions.builder().create("create table a(x int)"));
        assertThat(noEngine.setupStatements().get(0).kind()).isEqualTo(Statement.Kind.PLAIN);
    }

    @Test
    void anExistingFileIsReadAndAFolderIsRefused(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("q.sql");
        Files.writeString(file, "select 1\nselect 2\n");
        Workload w = build(SlapOptions.builder().query(file.toString()));
        assertThat(w.queries()).extracting(Statement::sql).containsExactly("select 1", "select 2");
        assertThat(w.queryCount()).isEqualTo(2);
        assertThatThrownBy(() -> build(SlapOptions.builder().query(dir.toString())))
                .isInstanceOf(SlapException.class)
                .hasMessageContaining("User query supplied file was not a regular file");
        assertThatThrownBy(() -> build(SlapOptions.builder().create(dir.toString()).query("select 1")))
                .hasMessageContaining("Create file was not a regular file");
    }
}
