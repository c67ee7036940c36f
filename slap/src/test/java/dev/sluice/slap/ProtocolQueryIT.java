package dev.sluice.slap;

import com.mysql.cj.jdbc.ConnectionImpl;
import com.mysql.cj.protocol.ServerSession;
import dev.sluice.testkit.MariaDbServer;
import dev.sluice.testkit.TestUsers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * Statements sent through Connector/J's protocol layer: every result of every statement is read
 * to its end (the connection answers the next statement correctly), errors are the SQLExceptions
 * JDBC throws, and the server status reaches Connector/J. With and without compression.
 */
@ExtendWith(SlapServerExtension.class)
class ProtocolQueryIT {

    private static Connector connector(MariaDbServer server, boolean compress) {
        return new Connector(new ConnectionOptions(server.host(), server.port(), TestUsers.APP_USER,
                TestUsers.APP_PASSWORD, null, null, compress, null, null, null), true, "utf8mb4");
    }

    private static JdbcSession open(MariaDbServer server, boolean compress) throws SQLException {
        return new JdbcSession(connector(server, compress).open(TestUsers.TEST_SCHEMA), null);
    }

    private static ProtocolQuery query(JdbcSession session) throws SQLException {
        return new ProtocolQuery(session.connection());
    }

    private static long sessionCount(JdbcSession session, String variable) throws SQLException {
        return Long.parseLong(session.column("SHOW SESSION STATUS LIKE '" + variable + "'", 2).get(0));
    }

    @ParameterizedTest(name = "compress={0}")
    @ValueSource(booleans = {false, true})
    void everyResultOfAMultiStatementIsRead(boolean compress, MariaDbServer server) throws SQLException {
        try (JdbcSession session = open(server, compress)) {
            long selects = sessionCount(session, "Com_select");
            assertThat(query(session).run("SELECT 1; DO 1; SELECT a, 'x' FROM (SELECT 1 a UNION ALL SELECT 2"
                    + " UNION ALL SELECT 3) t; SELECT 1 FROM dual WHERE 0")).isEqualTo(4);
            assertThat(sessionCount(session, "Com_select") - selects).isEqualTo(3);
            assertThat(session.column("SELECT 42", 1)).containsExactly("42");
        }
    }

    @ParameterizedTest(name = "compress={0}")
    @ValueSource(booleans = {false, true})
    void aStatementEncodedOnceReachesTheServerAsWritten(boolean compress, MariaDbServer server) throws SQLException {
        dev.sluice.slap.Statement statement = dev.sluice.slap.Statement.plain("SELECT 'déjà vu ✓' INTO @said");
        try (JdbcSession session = open(server, compress)) {
            session.execute(statement.sql(), statement.utf8());
            session.execute(statement.sql(), statement.utf8());
            assertThat(session.column("SELECT @said", 1)).containsExactly("déjà vu ✓");
            assertThat(session.column("SELECT CHAR_LENGTH(@said)", 1)).containsExactly("9");
        }
    }

    @ParameterizedTest(name = "compress={0}")
    @ValueSource(booleans = {false, true})
    void aStatementLongerThanThePlainPathTakesIsRunToo(boolean compress, MariaDbServer server) throws SQLException {
        String literal = "x".repeat(PlainQuery.MAX_TEXT);
        try (JdbcSession session = open(server, compress)) {
            assertThat(query(session).run("SELECT LENGTH('" + literal + "') UNION ALL SELECT 1")).isEqualTo(2);
            assertThat(query(session).run("SELECT 1 FROM dual WHERE '" + literal + "' = 'y'")).isZero();
            assertThat(session.column("SELECT 5", 1)).containsExactly("5");
        }
    }

    @ParameterizedTest(name = "compress={0}")
    @ValueSource(booleans = {false, true})
    void aRowLongerThanOnePacketIsReadWhole(boolean compress, MariaDbServer server) throws SQLException {
        try (Connection admin = server.openAdmin(); Statement set = admin.createStatement()) {
            String before;
            try (ResultSet value = set.executeQuery("SELECT @@GLOBAL.max_allowed_packet")) {
                value.next();
                before = value.getString(1);
            }
            set.execute("SET GLOBAL max_allowed_packet = 64 * 1024 * 1024");
            try (JdbcSession session = open(server, compress)) {
                // One field of 2^24 bytes: its length prefix starts with 0xFE, the first byte of an
                // EOF or OK packet, and the row spans two packets.
                // REPEAT gives NULL beyond max_allowed_packet: the row really is that long.
                assertThat(session.column("SELECT LENGTH(REPEAT('x', 16777216))", 1)).containsExactly("16777216");
                assertThat(query(session).run("SELECT REPEAT('x', 16777216) UNION ALL SELECT 'next'")).isEqualTo(2);
                assertThat(session.column("SELECT 7", 1)).containsExactly("7");
            } finally {
                set.execute("SET GLOBAL max_allowed_packet = " + before);
            }
        }
    }

    @Test
    void aServerErrorIsTheExceptionJdbcThrows(MariaDbServer server) throws SQLException {
        String sql = "SELECT * FROM no_such_table";
        SQLException jdbc;
        try (Connection connection = connector(server, false).open(TestUsers.TEST_SCHEMA);
             Statement statement = connection.createStatement()) {
            jdbc = catchThrowableOfType(SQLException.class, () -> statement.execute(sql));
        }
        try (JdbcSession session = open(server, false)) {
            SQLException ours = catchThrowableOfType(SQLException.class, () -> session.execute(sql));
            assertThat((Throwable) ours).hasSameClassAs(jdbc).hasMessage(jdbc.getMessage());
            assertThat(ours.getErrorCode()).isEqualTo(1146).isEqualTo(jdbc.getErrorCode());
            assertThat(ours.getSQLState()).isEqualTo(jdbc.getSQLState());
            assertThat(session.isClosed()).isFalse();
            assertThat(session.column("SELECT 1", 1)).containsExactly("1");
        }
    }

    @Test
    void anErrorAfterEarlierResultsEndsTheStatement(MariaDbServer server) throws SQLException {
        try (JdbcSession session = open(server, false)) {
            SQLException e = catchThrowableOfType(SQLException.class,
                    () -> session.execute("SELECT 1; SELECT * FROM no_such_table; SELECT 2"));
            assertThat(e.getErrorCode()).isEqualTo(1146);
            assertThat(session.column("SELECT 3", 1)).containsExactly("3");
        }
    }

    @Test
    void anErrorAmongTheRowsEndsTheResult(MariaDbServer server) throws SQLException {
        try (JdbcSession session = open(server, false)) {
            SQLException e = catchThrowableOfType(SQLException.class, () -> session.execute(
                    "SELECT IF(a = 3, (SELECT 1 UNION SELECT 2), a) FROM (SELECT 1 a UNION ALL SELECT 2 UNION ALL SELECT 3) t"));
            assertThat(e.getErrorCode()).isEqualTo(1242);
            assertThat(session.column("SELECT 4", 1)).containsExactly("4");
        }
    }

    @Test
    void theServerStatusReachesConnectorJ(MariaDbServer server) throws SQLException {
        try (Connection connection = connector(server, false).open(TestUsers.TEST_SCHEMA);
             JdbcSession session = new JdbcSession(connection, null)) {
            ServerSession status = connection.unwrap(ConnectionImpl.class).getSession().getServerSession();
            session.execute("BEGIN");
            assertThat(status.inTransactionOnServer()).isTrue();
            session.execute("COMMIT");
            assertThat(status.inTransactionOnServer()).isFalse();
        }
    }

    @Test
    void localFilesAreNotOffered(MariaDbServer server) throws SQLException {
        try (JdbcSession session = open(server, false)) {
            session.execute("CREATE TEMPORARY TABLE words (word TEXT)");
            SQLException e = catchThrowableOfType(SQLException.class,
                    () -> session.execute("LOAD DATA LOCAL INFILE '/etc/hostname' INTO TABLE words"));
            // 4166: "... the MariaDB server or client has disabled the local infile capability".
            assertThat(e.getErrorCode()).as(e.getMessage()).isEqualTo(4166);
            assertThat(session.column("SELECT COUNT(*) FROM words", 1)).containsExactly("0");
        }
    }

    @Test
    void aConnectionTheServerKilledIsClosed(MariaDbServer server) throws SQLException {
        try (JdbcSession session = open(server, false); Connection admin = server.openAdmin();
             Statement kill = admin.createStatement()) {
            List<String> id = session.column("SELECT CONNECTION_ID()", 1);
            kill.execute("KILL " + id.get(0));
            SQLException e = catchThrowableOfType(SQLException.class, () -> session.execute("SELECT 1"));
            assertThat((Throwable) e).isNotNull();
            assertThat(session.isClosed()).isTrue();
        }
    }
}
