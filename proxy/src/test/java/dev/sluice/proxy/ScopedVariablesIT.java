package dev.sluice.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import com.mysql.cj.jdbc.JdbcConnection;
import dev.sluice.testkit.MariaDbCluster;
import dev.sluice.testkit.MariaDbClusterExtension;
import dev.sluice.testkit.TestUsers;
import java.io.IOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * MariaDB's SET STATEMENT var = value FOR sets the variable for one statement and puts it back
 * after that statement's own report, so the server reports it again, at its old value and with
 * the state-change flag, in the next OK on that connection: a write's, often another session's.
 * That report once tied the session that received it to its connection (untracked state). One
 * backend connection and one event loop make every session share the connection.
 */
@ExtendWith(MariaDbClusterExtension.class)
@Timeout(60)
class ScopedVariablesIT {

    private static ProxyServer proxy;

    @BeforeAll
    static void start(MariaDbCluster cluster) throws SQLException {
        try (Connection c = cluster.primary().openAdmin(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS sluice_test.scoped_rows (id INT AUTO_INCREMENT PRIMARY KEY, v INT)");
        }
        proxy = ProxyFixture.start(ProxyFixture.splitOnOneConnection(cluster));
    }

    @AfterAll
    static void stop() {
        if (proxy != null) {
            proxy.close();
        }
    }

    private static java.util.Set<String> pins(long sessionId) {
        return proxy.runtime().session(sessionId).orElseThrow().pins();
    }

    /** Connector/J asks for CLIENT_DEPRECATE_EOF: the SELECT's result ends with an OK that reports the scoped value. */
    @Test
    void aWriteAfterAScopedReadStaysFreeWithResultsEndingInOk() throws SQLException {
        try (Connection c = ProxyFixture.connect(proxy, "sluice_test", ""); Statement s = c.createStatement()) {
            s.execute("SET SESSION div_precision_increment = 6");
            // Connector/J's executeQuery refuses a text that starts with SET.
            assertThat(s.execute("SET STATEMENT div_precision_increment = 10 FOR SELECT 1/7")).isTrue();
            try (ResultSet rs = s.getResultSet()) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(1)).isEqualTo("0.1428571429");
            }
            s.executeUpdate("INSERT INTO scoped_rows (v) VALUES (1)");
            assertThat(pins(c.unwrap(JdbcConnection.class).getId())).as("after the INSERT").isEmpty();
            try (ResultSet rs = s.executeQuery("SELECT @@session.div_precision_increment")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getInt(1)).isEqualTo(6);
            }
        }
    }

    /** The mariadb client library does not: the result ends with an EOF, which reports nothing. */
    @Test
    void aWriteAfterAScopedReadStaysFreeWithResultsEndingInEof() throws IOException {
        try (RawClient client = new RawClient(proxy.port())) {
            assertThat(client.login(TestUsers.APP_USER, TestUsers.APP_PASSWORD, "sluice_test").header()).isZero();
            assertThat(client.firstRow("SET STATEMENT div_precision_increment = 10 FOR SELECT 1/7"))
                    .containsExactly("0.1428571429");
            assertThat(client.query("INSERT INTO scoped_rows (v) VALUES (2)").header()).isZero();
            assertThat(pins(client.connectionId())).as("after the INSERT").isEmpty();
            assertThat(client.firstRow("SELECT @@session.div_precision_increment = @@global.div_precision_increment"))
                    .containsExactly("1");
        }
    }

    /** The report comes to whichever session writes next on the connection. */
    @Test
    void theNextSessionOnTheConnectionStaysFree() throws IOException {
        try (RawClient scoping = new RawClient(proxy.port()); RawClient writing = new RawClient(proxy.port())) {
            assertThat(scoping.login(TestUsers.APP_USER, TestUsers.APP_PASSWORD, "sluice_test").header()).isZero();
            assertThat(writing.login(TestUsers.APP_USER, TestUsers.APP_PASSWORD, "sluice_test").header()).isZero();
            assertThat(scoping.firstRow("SET STATEMENT max_statement_time = 30 FOR SELECT COUNT(*) > -1 FROM scoped_rows"))
                    .containsExactly("1");
            assertThat(writing.query("INSERT INTO scoped_rows (v) VALUES (3)").header()).isZero();
            assertThat(pins(writing.connectionId())).as("after the INSERT").isEmpty();
            assertThat(scoping.firstRow("SELECT @@session.max_statement_time = @@global.max_statement_time"))
                    .as("the scoping session runs on the one connection").containsExactly("1");
        }
    }
}
