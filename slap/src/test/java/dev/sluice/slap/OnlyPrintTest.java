package dev.sluice.slap;

import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The statement sequence mysqlslap prints, checked line by line against what it really prints. */
class OnlyPrintTest {

    private static List<String> print(SlapOptions.Builder builder) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        SlapResult result = Slap.run(builder.onlyPrint(true).seed(1L).build(), new PrintWriter(out), new PrintWriter(err));
        assertThat(err.toString()).isEmpty();
        assertThat(result.runs()).isNotEmpty();
        return out.toString().lines()
                .map(l -> l.replaceAll("'[0-9A-Za-z]{126}'", "'S'").replaceAll("= \\d+", "= N").replaceAll("\\(\\d+,", "(N,"))
                .toList();
    }

    /** mariadb-slap 10.11 --only-print output for the same options, random values masked. */
    @Test
    void engineIterationsCommitAndKeysFollowMysqlslapsOrder() {
        List<String> lines = print(SlapOptions.builder().autoGenerateSql(true).numberOfQueries(2).concurrency(1)
                .iterations(2).uniqueQueryNumber(1).writeNumber(1).guidPrimary(true).loadType("update")
                .commit(1).engines(EngineSpec.parseList("innodb:ROW_FORMAT=DYNAMIC,memory")));
        String create = "CREATE TABLE `t1` (id varchar(36) primary key,intcol1 INT(32) ,charcol1 VARCHAR(128))";
        String update = "UPDATE t1 SET intcol1 = N,charcol1 = 'S' WHERE id =  '796c4422-1d94-102a-9d6d-00e0812d';";
        List<String> iteration = List.of("DROP SCHEMA IF EXISTS `mysqlslap`;", "CREATE SCHEMA `mysqlslap`;", "use mysqlslap;",
                create + " Engine = innodb ROW_FORMAT=DYNAMIC;", "SET AUTOCOMMIT=0;", "SET AUTOCOMMIT=0;", update,
                "COMMIT;", update, "COMMIT;", "COMMIT;");
        assertThat(lines.subList(0, 11)).isEqualTo(iteration);
        assertThat(lines.subList(11, 22)).isEqualTo(iteration);
        assertThat(lines.get(22)).isEqualTo("DROP SCHEMA IF EXISTS `mysqlslap`;");
        assertThat(lines.get(23)).isEqualTo("DROP SCHEMA IF EXISTS `mysqlslap`;");
        assertThat(lines.get(26)).isEqualTo(create + " Engine = memory;");
        assertThat(lines).hasSize(46);
    }

    @Test
    void userQueriesWithoutCreateTouchNoSchema() {
        List<String> lines = print(SlapOptions.builder().query("select 1;select 2").delimiter(";").concurrency(2));
        assertThat(lines).containsExactly("select 1;", "select 2;", "select 1;", "select 2;");
    }

    @Test
    void preAndPostQueriesWrapEachIteration() {
        List<String> lines = print(SlapOptions.builder().create("create table a (i int)").query("select * from a")
                .preQuery("set @x=1").postQuery("set @x=2").noDrop(true));
        assertThat(lines).containsExactly("CREATE SCHEMA `mysqlslap`;", "use mysqlslap;", "create table a (i int);",
                "set @x=1;", "select * from a;", "set @x=2;");
    }
}
