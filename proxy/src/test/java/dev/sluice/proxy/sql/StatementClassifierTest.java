package dev.sluice.proxy.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class StatementClassifierTest {
    private final StatementClassifier classifier = new StatementClassifier();

    private Classification classify(String sql) {
        return classifier.classify(sql);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '~', quoteCharacter = '"', value = {
        "SELECT c FROM sbtest1 WHERE id=?~SELECT~true",
        "select * from t where a = 'FOR UPDATE'~SELECT~true",
        "SELECT * FROM t WHERE note = 'x; DELETE FROM t'~SELECT~true",
        "SELECT * FROM t FOR UPDATE~SELECT~false",
        "SELECT * FROM t FOR UPDATE SKIP LOCKED~SELECT~false",
        "SELECT * FROM t FOR UPDATE NOWAIT~SELECT~false",
        "SELECT * FROM t FOR SHARE~SELECT~false",
        "SELECT * FROM t LOCK IN SHARE MODE~SELECT~false",
        "select * from t for update of t~SELECT~false",
        "SELECT * FROM t WHERE id IN (SELECT id FROM u WHERE x = (SELECT 1 FOR UPDATE))~SELECT~false",
        "(SELECT 1) UNION (SELECT 2 FOR UPDATE)~SELECT~false",
        "(SELECT 1) UNION ALL (SELECT 2) ORDER BY 1~SELECT~true",
        "((SELECT 1))~SELECT~true",
        "SELECT 1 /*! FOR UPDATE */~SELECT~false",
        "SELECT 1 /*!50100 FOR UPDATE */~SELECT~false",
        "SELECT 1 /*M! FOR UPDATE */~SELECT~false",
        "SELECT 1 /* FOR UPDATE */~SELECT~true",
        "SELECT 1 -- FOR UPDATE~SELECT~true",
        "SELECT 1 --FOR UPDATE~SELECT~false",
        "SELECT 1 INTO OUTFILE '/tmp/x'~SELECT~false",
        "SELECT 1 INTO DUMPFILE '/tmp/x'~SELECT~false",
        "SELECT 1 INTO @x~SELECT~false",
        "SELECT a FROM t PROCEDURE ANALYSE()~SELECT~false",
        "SELECT SLEEP(1)~SELECT~true",
        "SELECT COUNT(*), MAX(a), CONCAT(b, 'x'), IFNULL(c, 0), NOW(), UUID() FROM t GROUP BY d~SELECT~true",
        "SELECT REPLACE(a, 'x', 'y'), INSERT(a, 1, 2, 'z'), TRUNCATE(1.5, 0) FROM t~SELECT~true",
        "SELECT CAST(a AS CHAR(10) CHARACTER SET utf8mb4), CONVERT(b USING latin1) FROM t~SELECT~true",
        "SELECT a, ROW_NUMBER() OVER (PARTITION BY b ORDER BY c) FROM t WINDOW w AS (ORDER BY a)~SELECT~true",
        "SELECT * FROM t USE INDEX (i1) WHERE EXISTS (SELECT 1) AND a IN (1, 2) OR NOT (b)~SELECT~true",
        "SELECT * FROM JSON_TABLE(@j, '$[*]' COLUMNS (a INT PATH '$.a')) AS jt~SELECT~false",
        "SELECT * FROM JSON_TABLE('[1]', '$[*]' COLUMNS (a INT PATH '$', b VARCHAR(10) PATH '$')) jt~SELECT~true",
        "SELECT * FROM (SELECT 1 AS a) AS dt (x)~SELECT~true",
        "SELECT myfunc(1)~SELECT~false",
        "SELECT db.myfunc(1)~SELECT~false",
        "SELECT status(1)~SELECT~false",
        "SELECT t.`update`, t.select FROM t~SELECT~true",
        "SELECT `update` FROM t~SELECT~true",
        "SELECT 1 FROM t WHERE a = 1 UNION DELETE FROM t~SELECT~false",
        "SELECT * FROM t WHERE a = 1 -- x\\nUPDATE t SET a = 2~SELECT~false",
        "SELECT CURRENT_USER(), DATABASE(), VERSION(), @@version, @@session.sql_mode~SELECT~true",
        "WITH c AS (SELECT 1) SELECT * FROM c~SELECT~true",
        "WITH RECURSIVE c (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 5) SELECT * FROM c~SELECT~true",
        "WITH a AS (SELECT 1), b (x) AS (SELECT 2) SELECT * FROM a, b~SELECT~true",
        "WITH c AS (SELECT 1 FOR UPDATE) SELECT * FROM c~SELECT~false",
        "WITH c AS (SELECT 1) UPDATE t, c SET t.a = 1~UPDATE~false",
        "WITH c AS (SELECT 1) DELETE FROM t~DELETE~false",
        "TABLE t~SELECT~true",
        "VALUES ROW(1, 2)~SELECT~true",
        "SET STATEMENT max_statement_time = 1 FOR SELECT * FROM t~SELECT~true",
        "SET STATEMENT max_statement_time = 1 FOR UPDATE t SET a = 1~UPDATE~false",
        "SHOW TABLES~SHOW~true",
        "show full processlist~SHOW~true",
        "SHOW CREATE TABLE t~SHOW~true",
        "SHOW PROCEDURE STATUS~SHOW~true",
        "SHOW CREATE PROCEDURE p~SHOW~true",
        "SHOW CHARACTER SET LIKE 'utf8%'~SHOW~true",
        "SHOW GRANTS FOR CURRENT_USER~SHOW~true",
        "SHOW TABLES UPDATE~SHOW~false",
        "SHOW GLOBAL STATUS LIKE 'Com_%'~SHOW~true",
        "SHOW WARNINGS~SHOW~false",
        "SHOW COUNT(*) ERRORS~SHOW~false",
        "SHOW EXPLAIN FOR 5~SHOW~false",
        "DESCRIBE t~EXPLAIN~true",
        "DESC db.t col~EXPLAIN~true",
        "EXPLAIN t~EXPLAIN~true",
        "EXPLAIN SELECT * FROM t~EXPLAIN~true",
        "EXPLAIN EXTENDED SELECT 1~EXPLAIN~true",
        "EXPLAIN FORMAT=JSON SELECT 1~EXPLAIN~true",
        "EXPLAIN FORMAT = TREE (SELECT 1)~EXPLAIN~true",
        "EXPLAIN ANALYZE SELECT * FROM t~EXPLAIN~true",
        "EXPLAIN ANALYZE SELECT GET_LOCK('a', 1)~EXPLAIN~false",
        "EXPLAIN SELECT * FROM t FOR UPDATE~EXPLAIN~false",
        "EXPLAIN DELETE FROM t~EXPLAIN~false",
        "EXPLAIN FOR CONNECTION 12~EXPLAIN~false",
        "EXPLAIN FORMAT=JSON INTO @plan SELECT 1~EXPLAIN~false",
        "DESCRIBE SELECT 1~EXPLAIN~true",
        "ANALYZE SELECT * FROM t~EXPLAIN~true",
        "ANALYZE FORMAT=JSON UPDATE t SET a = 1~EXPLAIN~false",
        "ANALYZE TABLE t~ADMIN~false",
        "START TRANSACTION READ ONLY~BEGIN~true",
        "START TRANSACTION WITH CONSISTENT SNAPSHOT, READ ONLY~BEGIN~true",
        "START TRANSACTION READ WRITE~BEGIN~false",
        "START TRANSACTION~BEGIN~false",
        "BEGIN~BEGIN~false",
        "begin work~BEGIN~false",
        "BEGIN NOT ATOMIC SELECT 1; END~OTHER~false",
        "COMMIT~COMMIT~false",
        "ROLLBACK~ROLLBACK~false",
        "ROLLBACK TO SAVEPOINT s~ROLLBACK_TO_SAVEPOINT~false",
        "ROLLBACK WORK TO s~ROLLBACK_TO_SAVEPOINT~false",
        "SAVEPOINT s~SAVEPOINT~false",
        "RELEASE SAVEPOINT s~RELEASE_SAVEPOINT~false",
        "INSERT INTO t VALUES (1)~INSERT~false",
        "insert ignore into t select * from u~INSERT~false",
        "REPLACE INTO t VALUES (1)~REPLACE~false",
        "UPDATE t SET a = 1~UPDATE~false",
        "DELETE FROM t~DELETE~false",
        "LOAD DATA LOCAL INFILE '/tmp/x' INTO TABLE t~LOAD~false",
        "LOAD XML INFILE 'x' INTO TABLE t~LOAD~false",
        "LOAD INDEX INTO CACHE t~ADMIN~false",
        "CREATE TABLE t (a INT)~DDL~false",
        "CREATE OR REPLACE VIEW v AS SELECT 1~DDL~false",
        "ALTER TABLE t ADD COLUMN b INT~DDL~false",
        "DROP TABLE t~DDL~false",
        "RENAME TABLE a TO b~DDL~false",
        "TRUNCATE TABLE t~DDL~false",
        "CREATE USER u~ACCOUNT~false",
        "CREATE OR REPLACE USER u~ACCOUNT~false",
        "DROP ROLE r~ACCOUNT~false",
        "RENAME USER a TO b~ACCOUNT~false",
        "GRANT SELECT ON *.* TO u~ACCOUNT~false",
        "REVOKE ALL ON *.* FROM u~ACCOUNT~false",
        "SET PASSWORD = 'x'~ACCOUNT~false",
        "SET DEFAULT ROLE r TO u~ACCOUNT~false",
        "CALL p(1)~CALL~false",
        "DO 1~DO~false",
        "HANDLER t OPEN~HANDLER~false",
        "LOCK TABLES t READ~LOCK_TABLES~false",
        "LOCK INSTANCE FOR BACKUP~LOCK_TABLES~false",
        "UNLOCK TABLES~UNLOCK_TABLES~false",
        "PREPARE s FROM 'SELECT 1'~PREPARE~false",
        "EXECUTE s~EXECUTE~false",
        "EXECUTE IMMEDIATE 'SELECT 1'~EXECUTE~false",
        "DEALLOCATE PREPARE s~DEALLOCATE~false",
        "DROP PREPARE s~DEALLOCATE~false",
        "XA START 'x'~XA~false",
        "XA RECOVER~XA~false",
        "FLUSH PRIVILEGES~FLUSH~false",
        "KILL QUERY 5~KILL~false",
        "OPTIMIZE TABLE t~ADMIN~false",
        "CHANGE MASTER TO MASTER_HOST = 'h'~ADMIN~false",
        "START SLAVE~ADMIN~false",
        "STOP REPLICA~ADMIN~false",
        "PURGE BINARY LOGS TO 'x'~ADMIN~false",
        "BACKUP STAGE START~ADMIN~false",
        "SET NAMES utf8mb4~SET~false",
        "USE db~USE~false",
        "HELP 'select'~OTHER~false",
        "GET DIAGNOSTICS @n = NUMBER~OTHER~false",
        "'just a string'~OTHER~false",
        "42~OTHER~false",
        "frobnicate the database~OTHER~false",
        "label1: LOOP SELECT 1; END LOOP~OTHER~false",
        "(~OTHER~false",
        "EXPLAIN~EXPLAIN~false"})
    void classifiesKindAndReadOnly(String sql, StatementKind kind, boolean readOnly) {
        Classification c = classify(sql.replace("\\n", "\n"));
        assertThat(c.kind()).as("kind").isEqualTo(kind);
        assertThat(c.readOnly()).as("readOnly").isEqualTo(readOnly);
        assertThat(c.statementCount()).isEqualTo(1);
    }

    @Test
    void keywordsInAnyCaseAreKeywords() {
        for (String sql : new String[] {"SELECT * FROM t FOR UPDATE", "select * from t for update",
            "SeLeCt * FrOm t FoR uPdAtE"}) {
            Classification c = classify(sql);
            assertThat(c.kind()).isEqualTo(StatementKind.SELECT);
            assertThat(c.readOnly()).as(sql).isFalse();
        }
    }

    @Test
    void unicodeIdentifiersAreNames() {
        Classification c = classify("SELECT `çà`, naïve, 名前 FROM `テーブル` WHERE ключ = 'значение'");
        assertThat(c.kind()).isEqualTo(StatementKind.SELECT);
        assertThat(c.readOnly()).isTrue();
    }

    @Test
    void multiStatementsAreNeverReadOnly() {
        Classification c = classify("SELECT 1; SELECT 2;");
        assertThat(c.kind()).isEqualTo(StatementKind.MULTI);
        assertThat(c.readOnly()).isFalse();
        assertThat(c.statementCount()).isEqualTo(2);
        assertThat(c.statements()).extracting(Classification::kind)
                .containsExactly(StatementKind.SELECT, StatementKind.SELECT);
        assertThat(c.statements()).extracting(Classification::readOnly).containsExactly(true, true);
    }

    @Test
    void aMultiStatementCarriesEveryPartsState() {
        Classification c = classify("USE a; SET @x = 1; BEGIN; INSERT INTO t VALUES (@x); USE b; COMMIT /* sluice:primary */");
        assertThat(c.statementCount()).isEqualTo(6);
        assertThat(c.useSchema()).isEqualTo("b");
        assertThat(c.transactionEffect()).isEqualTo(TransactionEffect.COMMIT);
        assertThat(c.sessionEffects()).containsExactlyInAnyOrder(SessionEffect.USER_VARIABLE_WRITE,
                SessionEffect.USER_VARIABLE_READ);
        assertThat(c.setAssignments()).extracting(SetAssignment::name).containsExactly("x");
        assertThat(c.statements()).allMatch(part -> part.hint() == RoutingHint.PRIMARY);
    }

    @Test
    void semicolonsInsideStringsCommentsAndIdentifiersDoNotSplit() {
        for (String sql : new String[] {"SELECT ';'", "SELECT 1 /* ; */", "SELECT `a;b` FROM t", "SELECT 1 -- ;",
            "SELECT 1 # ;", "SELECT \"x;y\"", "SELECT 1;", "SELECT 1 ; ;  ", ";;SELECT 1"}) {
            Classification c = classify(sql);
            assertThat(c.statementCount()).as(sql).isEqualTo(1);
            assertThat(c.readOnly()).as(sql).isTrue();
        }
    }

    @Test
    void storedProgramDefinitionsKeepTheirSemicolons() {
        Classification c = classify("CREATE DEFINER=`root`@`%` PROCEDURE p() BEGIN SELECT 1; SET @x = 2; END");
        assertThat(c.kind()).isEqualTo(StatementKind.DDL);
        assertThat(c.statementCount()).isEqualTo(1);
        assertThat(classify("CREATE TRIGGER tr BEFORE INSERT ON t FOR EACH ROW BEGIN SET NEW.a = 1; END")
                .statementCount()).isEqualTo(1);
        assertThat(classify("CREATE TABLE event (a INT); SELECT 1").statementCount()).isEqualTo(2);
    }

    @Test
    void emptyTextIsEmpty() {
        for (String sql : new String[] {"", "   ", ";", ";;", "/* just a comment */", "-- x", "\0"}) {
            Classification c = classify(sql);
            assertThat(c.kind()).as(sql).isEqualTo(StatementKind.EMPTY);
            assertThat(c.statementCount()).isZero();
            assertThat(c.readOnly()).isFalse();
        }
    }

    @Test
    void hintsComeFromCommentsAnywhere() {
        assertThat(classify("/* sluice:replica */ SELECT 1").hint()).isEqualTo(RoutingHint.REPLICA);
        assertThat(classify("SELECT 1 /* sluice:primary */").hint()).isEqualTo(RoutingHint.PRIMARY);
        assertThat(classify("SELECT 1 -- sluice:replica").hint()).isEqualTo(RoutingHint.REPLICA);
        assertThat(classify("UPDATE t SET a = 1 # sluice:replica").hint()).isEqualTo(RoutingHint.REPLICA);
        assertThat(classify("/* sluice:replica */ SELECT /* sluice:primary */ 1").hint()).isEqualTo(RoutingHint.PRIMARY);
        assertThat(classify("SELECT '/* sluice:replica */'").hint()).isEqualTo(RoutingHint.NONE);
        assertThat(classify("SELECT 1").hint()).isEqualTo(RoutingHint.NONE);
        Classification replicaHint = classify("/* sluice:replica */ SELECT * FROM t FOR UPDATE");
        assertThat(replicaHint.readOnly()).as("a hint does not change readOnly").isFalse();
    }

    @Test
    void unterminatedTextIsNeverReadOnly() {
        for (String sql : new String[] {"SELECT 'abc", "SELECT `abc", "SELECT 1 /* abc", "SELECT 1 /*! abc",
            "SELECT \"abc"}) {
            assertThat(classify(sql).readOnly()).as(sql).isFalse();
        }
    }

    @Test
    void aBackslashThatTheSqlModeCouldReadEitherWayIsCheckedBothWays() {
        String sql = "SELECT 'a\\' ; DELETE FROM t; -- '";
        assertThat(classify(sql).readOnly()).isFalse();
        assertThat(classifier.classify(sql, new SqlMode(true, false)).readOnly()).isFalse();
        assertThat(classify("SELECT 'it\\'s' FROM t").readOnly()).isTrue();
    }

    @Test
    void aVersionGatedCommentIsCheckedAsCodeAndAsComment() {
        String sql = "/*!99999 SELECT ' */ DELETE FROM t WHERE 1 -- '*/";
        assertThat(classify(sql).readOnly()).isFalse();
        assertThat(classify("/*!99999 SELECT */ 1 /*!50000 FROM dual */").readOnly()).isFalse();
        assertThat(classify("SELECT 1 /*!50000 FROM dual */").readOnly()).isTrue();
    }

    @Test
    void ansiQuotesTurnDoubleQuotesIntoIdentifiers() {
        SqlMode ansi = SqlMode.fromSqlModeVariable("REAL_AS_FLOAT,PIPES_AS_CONCAT,ANSI_QUOTES,IGNORE_SPACE");
        assertThat(ansi.ansiQuotes()).isTrue();
        assertThat(classifier.classify("SELECT \"a\" FROM \"t\"", ansi).readOnly()).isTrue();
        assertThat(classifier.classify("SELECT \"a\"(1)", ansi).readOnly()).isFalse();
    }

    @Test
    void sqlModeVariableIsRead() {
        assertThat(SqlMode.fromSqlModeVariable("STRICT_TRANS_TABLES,NO_BACKSLASH_ESCAPES"))
                .isEqualTo(new SqlMode(true, false));
        assertThat(SqlMode.fromSqlModeVariable("")).isSameAs(SqlMode.DEFAULT);
        assertThat(SqlMode.fromSqlModeVariable(null)).isSameAs(SqlMode.DEFAULT);
        assertThat(SqlMode.fromSqlModeVariable("oracle")).isEqualTo(new SqlMode(false, true));
    }

    @Test
    void bytesAreClassifiedInPlaceOrDecoded() {
        byte[] utf8 = "xxSELECT `名前` FROM t\0".getBytes(StandardCharsets.UTF_8);
        Classification c = classifier.classify(utf8, 2, utf8.length - 2, StandardCharsets.UTF_8, SqlMode.DEFAULT);
        assertThat(c.kind()).isEqualTo(StatementKind.SELECT);
        assertThat(c.readOnly()).isTrue();
        byte[] use = "USE `données`".getBytes(StandardCharsets.UTF_8);
        assertThat(classifier.classify(use, 0, use.length, StandardCharsets.UTF_8, SqlMode.DEFAULT).useSchema())
                .isEqualTo("données");
        Charset sjis = Charset.forName("Shift_JIS");
        byte[] tricky = "SELECT 'ソ' FROM t".getBytes(sjis);
        assertThat(tricky).contains((byte) 0x5C);
        Classification decoded = classifier.classify(tricky, 0, tricky.length, sjis, SqlMode.DEFAULT);
        assertThat(decoded.readOnly()).isTrue();
    }

    @Test
    void badArgumentsGetTheDocumentedExceptions() {
        assertThatThrownBy(() -> classifier.classify((CharSequence) null)).isInstanceOf(NullPointerException.class)
                .hasMessage("sql");
        assertThatThrownBy(() -> classifier.classify("SELECT 1", null)).isInstanceOf(NullPointerException.class)
                .hasMessage("mode");
        byte[] bytes = "SELECT 1".getBytes(StandardCharsets.UTF_8);
        assertThatThrownBy(() -> classifier.classify(bytes, 4, 5, StandardCharsets.UTF_8, SqlMode.DEFAULT))
                .isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> classifier.classify(bytes, -1, 2, Charset.forName("GBK"), SqlMode.DEFAULT))
                .isInstanceOf(IndexOutOfBoundsException.class);
        assertThat(classifier.classify(bytes, 0, bytes.length, StandardCharsets.UTF_8, SqlMode.DEFAULT).readOnly())
                .as("still usable after a refused call").isTrue();
    }

    /** The server keeps the last statement's diagnostics through a statement that opens no table. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '~', quoteCharacter = '"', value = {
        "SELECT @@session.transaction_read_only~true",
        "SELECT 1 + 1, NOW(), @u~true",
        "select 1 from dual where 1 = 1~true",
        "SELECT (SELECT 1), EXISTS (SELECT 2)~true",
        "SET SESSION TRANSACTION READ ONLY~true",
        "SET sql_mode = 'ANSI', @a = 1~true",
        "SELECT TRIM(LEADING 'x' FROM 'xa')~false",
        "SELECT k FROM t~false",
        "SELECT 1 FROM `dual`~false",
        "SELECT (SELECT k FROM t LIMIT 1)~false",
        "SET @a = (SELECT MAX(k) FROM t)~false",
        "SELECT * FROM a JOIN b~false",
        "SHOW WARNINGS~false",
        "DO 1~false",
        "INSERT INTO t VALUES (1)~false",
        "SELECT 1; SELECT 2~false",
    })
    void aStatementThatNamesNoTableIsTableFree(String sql, boolean tableFree) {
        assertThat(classify(sql).tableFree()).isEqualTo(tableFree);
    }

    @Test
    void typicalResultsAreSharedInstances() {
        assertThat(classify("SELECT c FROM sbtest1 WHERE id=1")).isSameAs(classify("SELECT 2 FROM t"));
        assertThat(classify("SELECT @@port")).isSameAs(classify("SELECT 2"));
        assertThat(classify("INSERT INTO t VALUES (1)").sessionEffects()).isEmpty();
    }
}
