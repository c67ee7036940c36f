package dev.sluice.proxy.sql;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The statements real clients send, as read from /work/shared/captures (sysbench 1.0.20,
 * mariadb-slap, the mariadb CLI, Connector/J 9.5.0) and from mysqlslap-spec.md: how each is
 * classified and what its digest is. {@code \0} stands for the NUL byte mysqlslap appends.
 */
class ClientTrafficTest {
    private final StatementClassifier classifier = new StatementClassifier();
    private final Digest digest = new Digest();

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '~', quoteCharacter = '"', value = {
        // sysbench oltp_read_write, prepared once per thread
        "BEGIN~BEGIN~false~BEGIN",
        "SELECT c FROM sbtest1 WHERE id=?~SELECT~true~SELECT c FROM sbtest1 WHERE id = ?",
        "SELECT c FROM sbtest1 WHERE id BETWEEN ? AND ?~SELECT~true~SELECT c FROM sbtest1 WHERE id BETWEEN ? AND ?",
        "SELECT SUM(k) FROM sbtest1 WHERE id BETWEEN ? AND ?~SELECT~true~SELECT SUM(k) FROM sbtest1 WHERE id BETWEEN ? AND ?",
        "SELECT c FROM sbtest1 WHERE id BETWEEN ? AND ? ORDER BY c~SELECT~true~SELECT c FROM sbtest1 WHERE id BETWEEN ? AND ? ORDER BY c",
        "SELECT DISTINCT c FROM sbtest1 WHERE id BETWEEN ? AND ? ORDER BY c~SELECT~true~SELECT DISTINCT c FROM sbtest1 WHERE id BETWEEN ? AND ? ORDER BY c",
        "UPDATE sbtest1 SET k=k+1 WHERE id=?~UPDATE~false~UPDATE sbtest1 SET k = k + ? WHERE id = ?",
        "UPDATE sbtest1 SET c=? WHERE id=?~UPDATE~false~UPDATE sbtest1 SET c = ? WHERE id = ?",
        "DELETE FROM sbtest1 WHERE id=?~DELETE~false~DELETE FROM sbtest1 WHERE id = ?",
        "INSERT INTO sbtest1 (id, k, c, pad) VALUES (?, ?, ?, ?)~INSERT~false~INSERT INTO sbtest1(id, k, c, pad) VALUES (?, ?, ?, ?)",
        "COMMIT~COMMIT~false~COMMIT",
        // sysbench prepare
        "CREATE TABLE sbtest1(\\n  id INTEGER NOT NULL AUTO_INCREMENT,\\n  k INTEGER DEFAULT '0' NOT NULL,\\n  PRIMARY KEY (id)\\n) /*! ENGINE = innodb */~DDL~false~CREATE TABLE sbtest1(id INTEGER NOT NULL AUTO_INCREMENT, k INTEGER DEFAULT ? NOT NULL, PRIMARY KEY (id)) ENGINE = innodb",
        "CREATE INDEX k_1 ON sbtest1(k)~DDL~false~CREATE INDEX k_1 ON sbtest1(k)",
        // mariadb-slap / mysqlslap, auto-generated
        "DROP SCHEMA IF EXISTS `mysqlslap`~DDL~false~DROP SCHEMA IF EXISTS mysqlslap",
        "CREATE SCHEMA `mysqlslap`~DDL~false~CREATE SCHEMA mysqlslap",
        "CREATE TABLE `t1` (intcol1 INT(32) ,charcol1 VARCHAR(128))\0~DDL~false~CREATE TABLE t1(intcol1 INT(?), charcol1 VARCHAR(?))",
        "INSERT INTO t1 VALUES (964445884,'DPh7kD1E6f4MMQk1ioopsoIIcoD83DD8Wu7689K6oHTAjD3Hts6lYGv8x9G0EL0k')\0~INSERT~false~INSERT INTO t1 VALUES (?, ?)",
        "INSERT INTO t1 VALUES (NULL,uuid(),1804289383,'mxvtvmC9127qJNm06sGB8R92q2j7vTiiITRDGXM9Z')\0~INSERT~false~INSERT INTO t1 VALUES (NULL, UUID(), ?, ?)",
        "SELECT intcol1,charcol1 FROM t1\0~SELECT~true~SELECT intcol1, charcol1 FROM t1",
        "SELECT intcol1,charcol1 FROM t1 WHERE id =  '42e3bf3a-1c57-11ef-9b7e-0242ac120002'\0~SELECT~true~SELECT intcol1, charcol1 FROM t1 WHERE id = ?",
        "UPDATE t1 SET intcol1 = 1804289383,charcol1 = 'mxvtvmC9127qJNm06sGB8R92q2j7vTiiITRDGXM9Z' WHERE id = '42e3'\0~UPDATE~false~UPDATE t1 SET intcol1 = ?, charcol1 = ? WHERE id = ?",
        "SET AUTOCOMMIT=0~SET~false~SET AUTOCOMMIT = ?",
        "set default_storage_engine=`InnoDB`~SET~false~SET default_storage_engine = InnoDB",
        // the mariadb CLI
        "select @@version_comment limit 1~SELECT~true~SELECT @@version_comment LIMIT ?",
        "select 1~SELECT~true~SELECT ?",
        "show status like 'Ssl_version'~SHOW~true~SHOW STATUS LIKE ?",
        "call capdb.p()~CALL~false~CALL capdb.p()",
        "select 1 as a; select 2 as b; call capdb.p(); select x~MULTI~false~SELECT ? AS a; SELECT ? AS b; CALL capdb.p(); SELECT x",
        "SELECT ROW_COUNT()~SELECT~false~SELECT ROW_COUNT()",
        // Connector/J 9.5.0
        "SET character_set_results = NULL~SET~false~SET character_set_results = NULL",
        "SET autocommit=1~SET~false~SET AUTOCOMMIT = ?",
        "SET NAMES utf8mb4~SET~false~SET NAMES utf8mb4",
        "SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED~SET~false~SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED",
        "INSERT INTO types(id,i,bi,d,vc,bl,dt,f,dte,tm) VALUES (?,?,?,?,?,?,?,?,?,?)~INSERT~false~INSERT INTO types(id, i, bi, d, vc, bl, dt, f, dte, tm) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        "SELECT id, name FROM five WHERE id > ? ORDER BY id~SELECT~true~SELECT id, name FROM five WHERE id > ? ORDER BY id",
        "SELECT id,i,bi,d,vc,bl,dt,f,dte,tm FROM types WHERE id IN (?, ?) ORDER BY id~SELECT~true~SELECT id, i, bi, d, vc, bl, dt, f, dte, tm FROM types WHERE id IN (...) ORDER BY id",
        "SELECT CURRENT_USER()~SELECT~true~SELECT CURRENT_USER()",
        "SELECT @@tx_isolation, CURRENT_USER()~SELECT~true~SELECT @@tx_isolation, CURRENT_USER()",
        "DELETE FROM types WHERE id = 100~DELETE~false~DELETE FROM types WHERE id = ?",
        "/* mysql-connector-j-9.5.0 (Revision: a7b3c94f50efbddb9f0dd69b3e0d1aaa25305cd6) */SELECT  @@session.auto_increment_increment AS auto_increment_increment, @@character_set_client AS character_set_client, @@license AS license, @@sql_mode AS sql_mode, @@system_time_zone AS system_time_zone, @@time_zone AS time_zone, @@tx_isolation AS transaction_isolation, @@wait_timeout AS wait_timeout~SELECT~true~SELECT @@session.auto_increment_increment AS auto_increment_increment, @@character_set_client AS character_set_client, @@license AS license, @@sql_mode AS sql_mode, @@system_time_zone AS system_time_zone, @@time_zone AS time_zone, @@tx_isolation AS transaction_isolation, @@wait_timeout AS wait_timeout"})
    void classifiesAndDigests(String sql, StatementKind kind, boolean readOnly, String normalized) {
        String text = sql.replace("\\0", "\0").replace("\\n", "\n");
        Classification c = classifier.classify(text);
        assertThat(c.kind()).as("kind").isEqualTo(kind);
        assertThat(c.readOnly()).as("readOnly").isEqualTo(readOnly);
        assertThat(digest.normalize(text)).isEqualTo(normalized);
        assertThat(digest.fingerprint(text)).isEqualTo(Digest.hash(normalized));
    }

    @Test
    void loadDataLocalFromTheCapture() {
        String sql = "LOAD DATA LOCAL INFILE '/tmp/cap.csv' INTO TABLE capdb.t FIELDS TERMINATED BY ',' "
                + "OPTIONALLY ENCLOSED BY '\"' LINES TERMINATED BY '\\n' (id, v, b); SELECT ROW_COUNT()";
        Classification c = classifier.classify(sql);
        assertThat(c.kind()).isEqualTo(StatementKind.MULTI);
        assertThat(c.statements()).extracting(Classification::kind)
                .containsExactly(StatementKind.LOAD, StatementKind.SELECT);
        assertThat(c.sessionEffects()).containsExactly(SessionEffect.ROW_COUNT_READ);
        assertThat(digest.normalize(sql)).isEqualTo("LOAD DATA LOCAL INFILE ? INTO TABLE capdb.t FIELDS TERMINATED BY ? "
                + "OPTIONALLY ENCLOSED BY ? LINES TERMINATED BY ? (id, v, b); SELECT ROW_COUNT()");
    }
}
