package dev.sluice.proxy.sql;

import static dev.sluice.proxy.sql.SessionEffect.CONNECTION_CLOSE;
import static dev.sluice.proxy.sql.SessionEffect.CONNECTION_ID_READ;
import static dev.sluice.proxy.sql.SessionEffect.DIAGNOSTICS_READ;
import static dev.sluice.proxy.sql.SessionEffect.FOUND_ROWS_CALC;
import static dev.sluice.proxy.sql.SessionEffect.FOUND_ROWS_READ;
import static dev.sluice.proxy.sql.SessionEffect.HANDLER_CLOSE;
import static dev.sluice.proxy.sql.SessionEffect.HANDLER_OPEN;
import static dev.sluice.proxy.sql.SessionEffect.HANDLER_READ;
import static dev.sluice.proxy.sql.SessionEffect.LAST_INSERT_ID_READ;
import static dev.sluice.proxy.sql.SessionEffect.LAST_INSERT_ID_SET;
import static dev.sluice.proxy.sql.SessionEffect.OPAQUE_PROGRAM;
import static dev.sluice.proxy.sql.SessionEffect.ROLE_SET;
import static dev.sluice.proxy.sql.SessionEffect.ROW_COUNT_READ;
import static dev.sluice.proxy.sql.SessionEffect.SEQUENCE_LAST_READ;
import static dev.sluice.proxy.sql.SessionEffect.SEQUENCE_NEXT;
import static dev.sluice.proxy.sql.SessionEffect.SQL_DEALLOCATE;
import static dev.sluice.proxy.sql.SessionEffect.SQL_EXECUTE;
import static dev.sluice.proxy.sql.SessionEffect.SQL_PREPARE;
import static dev.sluice.proxy.sql.SessionEffect.TABLE_LOCK;
import static dev.sluice.proxy.sql.SessionEffect.TABLE_UNLOCK;
import static dev.sluice.proxy.sql.SessionEffect.TEMPORARY_TABLE_CREATE;
import static dev.sluice.proxy.sql.SessionEffect.TEMPORARY_TABLE_DROP;
import static dev.sluice.proxy.sql.SessionEffect.UNREPLAYABLE_VARIABLE;
import static dev.sluice.proxy.sql.SessionEffect.USER_LOCK_ACQUIRE;
import static dev.sluice.proxy.sql.SessionEffect.USER_LOCK_RELEASE;
import static dev.sluice.proxy.sql.SessionEffect.USER_VARIABLE_READ;
import static dev.sluice.proxy.sql.SessionEffect.USER_VARIABLE_WRITE;
import static dev.sluice.proxy.sql.SessionEffect.XA_BEGIN;
import static dev.sluice.proxy.sql.SessionEffect.XA_CONTINUE;
import static dev.sluice.proxy.sql.SessionEffect.XA_FINISH;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SessionEffectsTest {
    private final StatementClassifier classifier = new StatementClassifier();

    private void assertEffects(String sql, SessionEffect... expected) {
        Classification c = classifier.classify(sql);
        Set<SessionEffect> want = expected.length == 0 ? Set.of() : EnumSet.of(expected[0], expected);
        assertThat(c.sessionEffects()).as(sql).isEqualTo(want);
        if (!want.isEmpty()) {
            assertThat(c.readOnly()).as("a statement with effects is not read-only: " + sql).isFalse();
        }
    }

    /**
     * A statement that only reads what the session left on its connection writes nothing: it may
     * run on the replica connection that has it. Anything that could write may not.
     */
    @Test
    void readingSessionStateIsNoWrite() {
        for (String sql : new String[] {"SHOW WARNINGS", "SHOW ERRORS", "SHOW COUNT(*) WARNINGS", "SELECT @@warning_count",
                "SELECT FOUND_ROWS()", "SELECT ROW_COUNT(), LAST_INSERT_ID()", "SELECT @u, @@error_count", "SELECT 1"}) {
            assertThat(classifier.classify(sql).noWrites()).as(sql).isTrue();
        }
        for (String sql : new String[] {"SELECT @u := 1", "SELECT SQL_CALC_FOUND_ROWS a FROM t", "SELECT GET_LOCK('x', 1)",
                "SELECT @v FROM t FOR UPDATE", "SELECT my_function(@v)", "INSERT INTO t VALUES (LAST_INSERT_ID())",
                "SELECT @v INTO @w", "SELECT FOUND_ROWS(); DELETE FROM t", "SELECT @v, 'unterminated"}) {
            assertThat(classifier.classify(sql).noWrites()).as(sql).isFalse();
        }
    }

    @Test
    void temporaryTables() {
        assertEffects("CREATE TEMPORARY TABLE t (a INT)", TEMPORARY_TABLE_CREATE);
        assertEffects("CREATE OR REPLACE TEMPORARY TABLE t SELECT 1", TEMPORARY_TABLE_CREATE);
        assertEffects("create temporary table t as select @x", TEMPORARY_TABLE_CREATE, USER_VARIABLE_READ);
        assertEffects("DROP TEMPORARY TABLE IF EXISTS t", TEMPORARY_TABLE_DROP);
        assertEffects("CREATE TABLE t (a INT DEFAULT (uuid()))");
        assertEffects("DROP TABLE t");
    }

    @Test
    void userLocks() {
        assertEffects("SELECT GET_LOCK('x', 1)", USER_LOCK_ACQUIRE);
        assertEffects("select get_lock('x', 1), release_lock('y')", USER_LOCK_ACQUIRE, USER_LOCK_RELEASE);
        assertEffects("DO RELEASE_ALL_LOCKS()", USER_LOCK_RELEASE);
        assertEffects("SELECT service_get_write_locks('ns', 'l', 1)", USER_LOCK_ACQUIRE);
        assertEffects("SELECT 'GET_LOCK(1)'");
        Classification isFree = classifier.classify("SELECT IS_FREE_LOCK('x'), IS_USED_LOCK('y')");
        assertThat(isFree.sessionEffects()).isEmpty();
        assertThat(isFree.readOnly()).as("lock state lives on the primary").isFalse();
    }

    @Test
    void tableLocks() {
        assertEffects("LOCK TABLES t READ, u WRITE", TABLE_LOCK);
        assertEffects("lock table t write", TABLE_LOCK);
        assertEffects("UNLOCK TABLES", TABLE_UNLOCK);
        assertEffects("FLUSH TABLES WITH READ LOCK", TABLE_LOCK);
        assertEffects("FLUSH TABLES t1, t2 FOR EXPORT", TABLE_LOCK);
        assertEffects("FLUSH TABLES");
        assertEffects("LOCK INSTANCE FOR BACKUP", TABLE_LOCK);
        assertEffects("UNLOCK INSTANCE", TABLE_UNLOCK);
        assertEffects("BACKUP STAGE BLOCK_COMMIT", TABLE_LOCK);
        assertEffects("BACKUP STAGE END", TABLE_UNLOCK);
        assertEffects("BACKUP LOCK t", TABLE_LOCK);
        assertEffects("BACKUP UNLOCK", TABLE_UNLOCK);
    }

    @Test
    void userVariables() {
        assertEffects("SET @x = 1", USER_VARIABLE_WRITE);
        assertEffects("SET @x := @y + 1", USER_VARIABLE_WRITE, USER_VARIABLE_READ);
        assertEffects("SELECT @x := 1", USER_VARIABLE_WRITE);
        assertEffects("SELECT @rownum := @rownum + 1 FROM t", USER_VARIABLE_WRITE, USER_VARIABLE_READ);
        assertEffects("SELECT a, b INTO @x, @y FROM t", USER_VARIABLE_WRITE);
        assertEffects("SELECT a FROM t INTO @x", USER_VARIABLE_WRITE);
        assertEffects("SELECT * FROM t WHERE a = @x", USER_VARIABLE_READ);
        assertEffects("SELECT @`quoted name`, @'q'", USER_VARIABLE_READ);
        assertEffects("INSERT INTO t VALUES (@x)", USER_VARIABLE_READ);
        assertEffects("LOAD DATA INFILE 'f' INTO TABLE t (a, @v) SET b = @v", USER_VARIABLE_WRITE,
                USER_VARIABLE_READ);
        assertEffects("SELECT '@x', `@y`, 1 /* @z */");
    }

    @Test
    void accountNamesAreNotVariables() {
        assertEffects("CREATE USER 'u'@'localhost' IDENTIFIED BY 'x'");
        assertEffects("GRANT SELECT ON db.* TO `app`@`%`");
        assertEffects("SHOW GRANTS FOR root@localhost");
        Classification select = classifier.classify("SELECT 'u'@'h'");
        assertThat(select.readOnly()).isFalse();
    }

    @Test
    void foundRowsLastInsertIdRowCount() {
        assertEffects("SELECT SQL_CALC_FOUND_ROWS * FROM t LIMIT 10", FOUND_ROWS_CALC);
        assertEffects("SELECT FOUND_ROWS()", FOUND_ROWS_READ);
        assertEffects("SELECT LAST_INSERT_ID()", LAST_INSERT_ID_READ);
        assertEffects("select last_insert_id( )", LAST_INSERT_ID_READ);
        assertEffects("UPDATE seq SET id = LAST_INSERT_ID(id + 1)", LAST_INSERT_ID_SET);
        assertEffects("SELECT @@last_insert_id, @@identity", LAST_INSERT_ID_READ);
        assertEffects("SELECT ROW_COUNT()", ROW_COUNT_READ);
        assertEffects("SELECT CONNECTION_ID()", CONNECTION_ID_READ);
    }

    @Test
    void diagnostics() {
        assertEffects("SHOW WARNINGS", DIAGNOSTICS_READ);
        assertEffects("SHOW ERRORS LIMIT 1", DIAGNOSTICS_READ);
        assertEffects("SHOW COUNT(*) WARNINGS", DIAGNOSTICS_READ);
        assertEffects("SHOW PROFILES", DIAGNOSTICS_READ);
        assertEffects("SELECT @@warning_count, @@session.error_count", DIAGNOSTICS_READ);
        assertEffects("GET DIAGNOSTICS @n = NUMBER", DIAGNOSTICS_READ, USER_VARIABLE_WRITE, USER_VARIABLE_READ);
        assertEffects("GET CURRENT DIAGNOSTICS CONDITION 1 @m = MESSAGE_TEXT", DIAGNOSTICS_READ,
                USER_VARIABLE_WRITE, USER_VARIABLE_READ);
        assertEffects("SHOW VARIABLES LIKE 'warning_count'");
    }

    @Test
    void sequences() {
        assertEffects("SELECT NEXTVAL(s)", SEQUENCE_NEXT);
        assertEffects("SELECT NEXT VALUE FOR s", SEQUENCE_NEXT);
        assertEffects("INSERT INTO t VALUES (NEXT VALUE FOR s)", SEQUENCE_NEXT);
        assertEffects("SELECT LASTVAL(s), PREVIOUS VALUE FOR s", SEQUENCE_LAST_READ);
        Classification setval = classifier.classify("SELECT SETVAL(s, 10)");
        assertThat(setval.readOnly()).isFalse();
    }

    @Test
    void preparedStatementsHandlersAndXa() {
        assertEffects("PREPARE s FROM 'SELECT 1'", SQL_PREPARE);
        assertEffects("PREPARE s FROM @sql", SQL_PREPARE, USER_VARIABLE_READ);
        assertEffects("EXECUTE s USING @a, @b", SQL_EXECUTE, USER_VARIABLE_READ);
        assertEffects("DEALLOCATE PREPARE s", SQL_DEALLOCATE);
        assertEffects("DROP PREPARE s", SQL_DEALLOCATE);
        assertEffects("EXECUTE IMMEDIATE 'SELECT 1'", OPAQUE_PROGRAM);
        assertEffects("HANDLER t OPEN AS h", HANDLER_OPEN);
        assertEffects("HANDLER db.t READ idx NEXT", HANDLER_READ);
        assertEffects("HANDLER open READ FIRST", HANDLER_READ);
        assertEffects("HANDLER h CLOSE", HANDLER_CLOSE);
        assertEffects("XA START 'x'", XA_BEGIN);
        assertEffects("XA BEGIN 'x'", XA_BEGIN);
        assertEffects("XA END 'x'", XA_CONTINUE);
        assertEffects("XA PREPARE 'x'", XA_CONTINUE);
        assertEffects("XA COMMIT 'x'", XA_FINISH);
        assertEffects("XA ROLLBACK 'x'", XA_FINISH);
        assertEffects("XA RECOVER");
    }

    @Test
    void setsThatCannotBeReplayed() {
        assertEffects("SET TRANSACTION ISOLATION LEVEL SERIALIZABLE", UNREPLAYABLE_VARIABLE);
        assertEffects("SET SESSION TRANSACTION ISOLATION LEVEL SERIALIZABLE");
        assertEffects("SET insert_id = 5", UNREPLAYABLE_VARIABLE);
        assertEffects("SET @@session.rand_seed1 = 5", UNREPLAYABLE_VARIABLE);
        assertEffects("SET sql_mode = 'ANSI', time_zone = '+00:00'");
        assertEffects("SET GLOBAL insert_id = 5");
        assertEffects("SET ROLE ALL", ROLE_SET);
        assertEffects("SET", UNREPLAYABLE_VARIABLE);
        assertEffects("SET x", UNREPLAYABLE_VARIABLE);
        assertEffects("SET x =", UNREPLAYABLE_VARIABLE);
        assertEffects("SET (x) = 1", UNREPLAYABLE_VARIABLE);
    }

    @Test
    void opaqueCode() {
        assertEffects("CALL p()", OPAQUE_PROGRAM);
        assertEffects("CALL p(@x)", OPAQUE_PROGRAM, USER_VARIABLE_READ);
        assertEffects("BEGIN NOT ATOMIC SELECT 1; END", OPAQUE_PROGRAM);
        assertEffects("IF 1 THEN SELECT 1; END IF", OPAQUE_PROGRAM);
        assertEffects("SELECT my_function(a) FROM t", OPAQUE_PROGRAM);
        assertEffects("SELECT `my function`(a) FROM t", OPAQUE_PROGRAM);
        assertEffects("UPDATE t SET a = db.f(a)", OPAQUE_PROGRAM);
        assertEffects("INSERT INTO db.t (a, b) VALUES (1, 2)");
        assertEffects("INSERT INTO `t` (a) SELECT 1");
        assertEffects("REPLACE LOW_PRIORITY INTO t (a) VALUES (1)");
        assertEffects("CREATE TABLE t (a INT, KEY k (a))");
    }

    @Test
    void commitAndRollbackRelease() {
        assertEffects("COMMIT RELEASE", CONNECTION_CLOSE);
        assertEffects("ROLLBACK AND NO CHAIN RELEASE", CONNECTION_CLOSE);
        assertEffects("COMMIT NO RELEASE");
    }

    @Test
    void storedProgramBodiesCountEveryVariableBothWays() {
        assertEffects("CREATE PROCEDURE p() BEGIN SET @x = 1; END", USER_VARIABLE_WRITE, USER_VARIABLE_READ);
    }

    @Test
    void rolesOfEffects() {
        assertThat(TEMPORARY_TABLE_CREATE.role()).isEqualTo(SessionEffect.Role.CREATES);
        assertThat(TEMPORARY_TABLE_DROP.role()).isEqualTo(SessionEffect.Role.RELEASES);
        assertThat(USER_VARIABLE_READ.role()).isEqualTo(SessionEffect.Role.READS);
        assertThat(OPAQUE_PROGRAM.role()).isEqualTo(SessionEffect.Role.UNKNOWN);
    }
}
