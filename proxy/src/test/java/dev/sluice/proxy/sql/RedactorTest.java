package dev.sluice.proxy.sql;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class RedactorTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '~', quoteCharacter = '"', value = {
        "CREATE USER 'u'@'localhost' IDENTIFIED BY 'secret'~CREATE USER '***'@'localhost' IDENTIFIED BY '***'",
        "create user u identified by \"secret\", v identified by 'two'~create user u identified by '***', v identified by '***'",
        "ALTER USER u IDENTIFIED BY 'new' REPLACE 'old' RETAIN CURRENT PASSWORD~ALTER USER u IDENTIFIED BY '***' REPLACE '***' RETAIN CURRENT PASSWORD",
        "CREATE USER u IDENTIFIED WITH caching_sha2_password BY 'pw'~CREATE USER u IDENTIFIED WITH caching_sha2_password BY '***'",
        "CREATE USER u IDENTIFIED WITH 'mysql_native_password' AS '*6BB4837EB74329105EE4568DDA7DC67ED2CA2AD9'~CREATE USER u IDENTIFIED WITH '***' AS '***'",
        "CREATE USER u IDENTIFIED VIA ed25519 USING PASSWORD('pw')~CREATE USER u IDENTIFIED VIA ed25519 USING PASSWORD('***')",
        "CREATE USER u IDENTIFIED VIA mysql_native_password USING '*HASH' OR unix_socket~CREATE USER u IDENTIFIED VIA mysql_native_password USING '***' OR unix_socket",
        "CREATE USER u IDENTIFIED BY PASSWORD '*HASH'~CREATE USER u IDENTIFIED BY PASSWORD '***'",
        "CREATE USER u IDENTIFIED BY _utf8mb4'pw' COMMENT 'not secret'~CREATE USER u IDENTIFIED BY _utf8mb4'***' COMMENT '***'",
        "CREATE USER u IDENTIFIED BY x'7077'~CREATE USER u IDENTIFIED BY '***'",
        "CREATE USER u IDENTIFIED BY 'a\\'b;c' ; SELECT 'kept'~CREATE USER u IDENTIFIED BY '***' ; SELECT 'kept'",
        "CREATE USER u IDENTIFIED BY 'abc~CREATE USER u IDENTIFIED BY '***'",
        "GRANT ALL ON *.* TO 'u'@'%' IDENTIFIED BY 'pw' WITH GRANT OPTION~GRANT ALL ON *.* TO '***'@'%' IDENTIFIED BY '***' WITH GRANT OPTION",
        "SET PASSWORD = 'pw'~SET PASSWORD = '***'",
        "SET PASSWORD FOR 'u'@'h' = PASSWORD('pw')~SET PASSWORD FOR '***'@'h' = PASSWORD('***')",
        "SET PASSWORD FOR u = OLD_PASSWORD('pw')~SET PASSWORD FOR u = OLD_PASSWORD('***')",
        "SET PASSWORD FOR u = 'new' REPLACE 'old'~SET PASSWORD FOR u = '***' REPLACE '***'",
        "CHANGE MASTER TO MASTER_HOST='h', MASTER_USER='repl', MASTER_PASSWORD='pw', MASTER_PORT=3306~CHANGE MASTER TO MASTER_HOST='***', MASTER_USER='***', MASTER_PASSWORD='***', MASTER_PORT=3306",
        "CHANGE REPLICATION SOURCE TO SOURCE_PASSWORD = 'pw'~CHANGE REPLICATION SOURCE TO SOURCE_PASSWORD = '***'",
        "START REPLICA USER='u' PASSWORD='pw'~START REPLICA USER='***' PASSWORD='***'",
        "CREATE SERVER s FOREIGN DATA WRAPPER mysql OPTIONS (USER 'u', PASSWORD 'pw')~CREATE SERVER s FOREIGN DATA WRAPPER mysql OPTIONS (USER '***', PASSWORD '***')",
        "SELECT PASSWORD('pw')~SELECT PASSWORD('***')",
        "/*!80000 CREATE USER u IDENTIFIED BY 'pw' */~/*!80000 CREATE USER u IDENTIFIED BY '***' */",
        "CREATE USER u IDENTIFIED BY 'x' ; CREATE USER v IDENTIFIED BY 'y'~CREATE USER u IDENTIFIED BY '***' ; CREATE USER v IDENTIFIED BY '***'",
        "PREPARE s FROM 'CREATE USER u IDENTIFIED BY ''x'''~PREPARE s FROM '***'",
        "EXECUTE IMMEDIATE CONCAT('ALTER USER u IDENTIFIED BY ', QUOTE('pw'))~EXECUTE IMMEDIATE CONCAT('***', QUOTE('***'))",
        "SELECT PASSWORD(CONCAT('a', 'b'))~SELECT PASSWORD(CONCAT('***', '***'))",
        "UPDATE users SET password = 'hash' WHERE name = 'bob'~UPDATE users SET password = '***' WHERE name = '***'",
        "INSERT INTO t (password) VALUES ('x')~INSERT INTO t (password) VALUES ('***')",
        "SELECT 'IDENTIFIED BY secret' FROM t~SELECT '***' FROM t"})
    void masksPasswords(String sql, String redacted) {
        assertThat(Redactor.redact(sql)).isEqualTo(redacted);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "SELECT * FROM users WHERE name = 'BY'",
        "SELECT a AS 'alias' FROM t",
        "SELECT CONVERT('x' USING utf8mb4)",
        "CREATE USER u",
        "ALTER USER u PASSWORD EXPIRE INTERVAL 90 DAY",
        "CREATE USER u IDENTIFIED WITH auth_socket",
        "CREATE USER u IDENTIFIED BY RANDOM PASSWORD",
        "SELECT 'not a secret' FROM t ; CREATE USER u",
        "-- IDENTIFIED BY 'x'\nSELECT 1",
        ""})
    void leavesTextWithoutSecretsAlone(String sql) {
        assertThat(Redactor.redact(sql)).isSameAs(sql);
    }

    @Test
    void aStringTheSqlModeReadsDifferentlyIsMaskedEitherWay() {
        // with escapes the password is [a' , ] and b' is garbage; without, it is [a\\] and , 'b' is garbage
        String sql = "CREATE USER u IDENTIFIED BY 'a\\' , 'b'";
        assertThat(Redactor.redact(sql)).isEqualTo("CREATE USER u IDENTIFIED BY '***'");
        assertThat(Redactor.redact(sql, new SqlMode(true, false))).isEqualTo("CREATE USER u IDENTIFIED BY '***'");
    }

    @Test
    void ansiQuotesMakeDoubleQuotesIdentifiers() {
        assertThat(Redactor.redact("CREATE USER \"u\" IDENTIFIED BY 'pw'", new SqlMode(false, true)))
                .isEqualTo("CREATE USER \"u\" IDENTIFIED BY '***'");
    }
}
