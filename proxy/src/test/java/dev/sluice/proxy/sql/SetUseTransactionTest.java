package dev.sluice.proxy.sql;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SetUseTransactionTest {
    private final StatementClassifier classifier = new StatementClassifier();

    private List<SetAssignment> assignments(String sql) {
        Classification c = classifier.classify(sql);
        assertThat(c.kind()).isEqualTo(StatementKind.SET);
        return c.setAssignments();
    }

    private static SetAssignment session(String name, String value) {
        return new SetAssignment(SetScope.SESSION, name, value, true);
    }

    @Test
    void setNamesAndCharacterSet() {
        assertThat(assignments("SET NAMES utf8mb4")).containsExactly(session("NAMES", "utf8mb4"));
        assertThat(assignments("set names 'utf8mb4' collate 'utf8mb4_unicode_ci'"))
                .containsExactly(session("NAMES", "'utf8mb4' collate 'utf8mb4_unicode_ci'"));
        assertThat(assignments("SET NAMES DEFAULT")).containsExactly(session("NAMES", "DEFAULT"));
        assertThat(assignments("SET CHARACTER SET utf8")).containsExactly(session("CHARACTER SET", "utf8"));
        assertThat(assignments("SET CHARSET latin1")).containsExactly(session("CHARACTER SET", "latin1"));
        assertThat(assignments("/*!40101 SET NAMES utf8 */")).containsExactly(session("NAMES", "utf8"));
    }

    @Test
    void setSessionAndGlobalVariables() {
        assertThat(assignments("SET autocommit=0")).containsExactly(session("autocommit", "0"));
        assertThat(assignments("SET @@session.sql_mode = 'STRICT_TRANS_TABLES'"))
                .containsExactly(session("sql_mode", "'STRICT_TRANS_TABLES'"));
        assertThat(assignments("SET @@SQL_MODE := ''")).containsExactly(session("sql_mode", "''"));
        assertThat(assignments("SET LOCAL wait_timeout = 10, @@local.net_read_timeout = 5"))
                .containsExactly(session("wait_timeout", "10"), session("net_read_timeout", "5"));
        assertThat(assignments("SET character_set_results = NULL"))
                .containsExactly(session("character_set_results", "NULL"));
        assertThat(assignments("SET time_zone = '+00:00' /* utc */"))
                .containsExactly(session("time_zone", "'+00:00'"));
        assertThat(assignments("SET GLOBAL max_connections = 500, sort_buffer_size = 1, SESSION x = DEFAULT"))
                .containsExactly(new SetAssignment(SetScope.GLOBAL, "max_connections", "500", true),
                        new SetAssignment(SetScope.GLOBAL, "sort_buffer_size", "1", true),
                        session("x", "DEFAULT"));
        assertThat(assignments("SET @@global.a = 1, b = 2")).containsExactly(
                new SetAssignment(SetScope.GLOBAL, "a", "1", true), session("b", "2"));
        assertThat(assignments("SET PERSIST a = 1")).containsExactly(new SetAssignment(SetScope.PERSIST, "a", "1", true));
        assertThat(assignments("SET @@persist_only.a = 1"))
                .containsExactly(new SetAssignment(SetScope.PERSIST_ONLY, "a", "1", true));
        assertThat(assignments("SET GLOBAL default.key_buffer_size = 1"))
                .containsExactly(new SetAssignment(SetScope.GLOBAL, "default.key_buffer_size", "1", true));
        assertThat(assignments("SET `sql_mode` = ''")).containsExactly(session("sql_mode", "''"));
    }

    @Test
    void valuesThatDependOnTheConnectionAreNotReplayable() {
        assertThat(assignments("SET sql_mode = CONCAT(@@sql_mode, ',ANSI')")).containsExactly(
                new SetAssignment(SetScope.SESSION, "sql_mode", "CONCAT(@@sql_mode, ',ANSI')", false));
        assertThat(assignments("SET time_zone = @tz")).containsExactly(
                new SetAssignment(SetScope.SESSION, "time_zone", "@tz", false));
        assertThat(assignments("SET @x = (SELECT MAX(id) FROM t), @y = -1")).containsExactly(
                new SetAssignment(SetScope.USER, "x", "(SELECT MAX(id) FROM t)", false),
                new SetAssignment(SetScope.USER, "y", "-1", true));
    }

    @Test
    void userVariables() {
        assertThat(assignments("SET @X = 1, @`my var` := 'a', @'q' = 2")).containsExactly(
                new SetAssignment(SetScope.USER, "x", "1", true),
                new SetAssignment(SetScope.USER, "my var", "'a'", true),
                new SetAssignment(SetScope.USER, "q", "2", true));
    }

    @Test
    void setTransaction() {
        assertThat(assignments("SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED"))
                .containsExactly(session("TRANSACTION", "ISOLATION LEVEL READ COMMITTED"));
        assertThat(assignments("SET TRANSACTION READ ONLY")).containsExactly(
                new SetAssignment(SetScope.NEXT_TRANSACTION, "TRANSACTION", "READ ONLY", true));
        assertThat(assignments("SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED, READ ONLY"))
                .containsExactly(session("TRANSACTION", "ISOLATION LEVEL READ COMMITTED, READ ONLY"));
        assertThat(assignments("SET GLOBAL TRANSACTION ISOLATION LEVEL SERIALIZABLE")).containsExactly(
                new SetAssignment(SetScope.GLOBAL, "TRANSACTION", "ISOLATION LEVEL SERIALIZABLE", true));
    }

    @Test
    void setRole() {
        assertThat(assignments("SET ROLE 'r1', 'r2'")).containsExactly(session("ROLE", "'r1', 'r2'"));
        assertThat(assignments("SET ROLE NONE")).containsExactly(session("ROLE", "NONE"));
    }

    @Test
    void setStatementAndSetPasswordHaveNoAssignments() {
        assertThat(classifier.classify("SET STATEMENT max_statement_time = 1 FOR SELECT 1").setAssignments()).isEmpty();
        assertThat(classifier.classify("SET PASSWORD = 'secret'").setAssignments()).isEmpty();
    }

    @Test
    void setStatementNamesTheVariablesItScopes() {
        assertThat(classifier.classify("SET STATEMENT max_statement_time = 1 FOR SELECT 1").scopedVariables())
                .containsExactly("max_statement_time");
        assertThat(classifier.classify("set statement `Div_Precision_Increment`=10, sort_buffer_size = (1024 * 1024),"
                + " optimizer_switch='a=on,b=off' for select 1/7").scopedVariables())
                .containsExactly("div_precision_increment", "sort_buffer_size", "optimizer_switch");
        assertThat(classifier.classify("SELECT 1").scopedVariables()).isNull();
        assertThat(classifier.classify("SET max_statement_time = 1").scopedVariables()).isNull();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '~', quoteCharacter = '"', value = {
        "USE db~db", "use `my db`~my db", "USE `a``b`~a`b", "USE db;~db", "USE /* c */ db~db", "USE~",
        "USE 'x'~"})
    void useSchema(String sql, String schema) {
        Classification c = classifier.classify(sql);
        assertThat(c.kind()).isEqualTo(StatementKind.USE);
        assertThat(c.useSchema()).isEqualTo(schema);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '~', quoteCharacter = '"', value = {
        "BEGIN~BEGIN", "BEGIN WORK~BEGIN", "START TRANSACTION~BEGIN", "START TRANSACTION READ ONLY~BEGIN_READ_ONLY",
        "START TRANSACTION READ WRITE~BEGIN_READ_WRITE", "START TRANSACTION WITH CONSISTENT SNAPSHOT~BEGIN",
        "COMMIT~COMMIT", "COMMIT WORK~COMMIT", "COMMIT AND CHAIN~COMMIT_AND_CHAIN", "COMMIT AND NO CHAIN~COMMIT",
        "ROLLBACK~ROLLBACK", "ROLLBACK AND CHAIN~ROLLBACK_AND_CHAIN", "ROLLBACK TO SAVEPOINT a~NONE",
        "SAVEPOINT a~NONE", "RELEASE SAVEPOINT a~NONE", "XA START 'x'~BEGIN", "XA COMMIT 'x'~COMMIT",
        "XA ROLLBACK 'x'~ROLLBACK", "CREATE TABLE t (a INT)~IMPLICIT_COMMIT", "CREATE TEMPORARY TABLE t (a INT)~NONE",
        "DROP TEMPORARY TABLE t~NONE", "DROP TABLE t~IMPLICIT_COMMIT", "ALTER TABLE t ADD b INT~IMPLICIT_COMMIT",
        "TRUNCATE t~IMPLICIT_COMMIT", "RENAME TABLE a TO b~IMPLICIT_COMMIT", "CREATE INDEX i ON t (a)~IMPLICIT_COMMIT",
        "CREATE USER u~IMPLICIT_COMMIT", "GRANT ALL ON *.* TO u~IMPLICIT_COMMIT", "SET PASSWORD = 'x'~IMPLICIT_COMMIT",
        "LOCK TABLES t READ~IMPLICIT_COMMIT", "UNLOCK TABLES~IMPLICIT_COMMIT", "LOCK INSTANCE FOR BACKUP~NONE",
        "FLUSH TABLES~IMPLICIT_COMMIT", "ANALYZE TABLE t~IMPLICIT_COMMIT", "OPTIMIZE TABLE t~IMPLICIT_COMMIT",
        "CHECK TABLE t~IMPLICIT_COMMIT", "REPAIR TABLE t~IMPLICIT_COMMIT", "CACHE INDEX t IN c~IMPLICIT_COMMIT",
        "LOAD INDEX INTO CACHE t~IMPLICIT_COMMIT", "RESET MASTER~IMPLICIT_COMMIT", "RESET PERSIST~NONE",
        "START SLAVE~IMPLICIT_COMMIT", "STOP REPLICA~IMPLICIT_COMMIT", "CHANGE MASTER TO MASTER_HOST='h'~IMPLICIT_COMMIT",
        "INSTALL PLUGIN p SONAME 'x'~IMPLICIT_COMMIT", "CHECKSUM TABLE t~NONE", "SET autocommit = 1~IMPLICIT_COMMIT",
        "SET autocommit = ON~IMPLICIT_COMMIT", "SET @@autocommit = 'true'~IMPLICIT_COMMIT", "SET autocommit = 0~NONE",
        "SET GLOBAL autocommit = 1~NONE", "INSERT INTO t VALUES (1)~NONE", "SELECT 1~NONE", "LOAD DATA INFILE 'f' INTO TABLE t~NONE",
        "EXPLAIN SELECT 1~NONE"})
    void transactionEffect(String sql, TransactionEffect effect) {
        assertThat(classifier.classify(sql).transactionEffect()).isEqualTo(effect);
    }

    @Test
    void consistentSnapshot() {
        assertThat(classifier.classify("START TRANSACTION WITH CONSISTENT SNAPSHOT").consistentSnapshot()).isTrue();
        assertThat(classifier.classify("START TRANSACTION READ ONLY").consistentSnapshot()).isFalse();
    }
}
