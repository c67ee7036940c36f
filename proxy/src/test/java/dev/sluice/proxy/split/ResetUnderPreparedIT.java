package dev.sluice.proxy.split;

import static org.assertj.core.api.Assertions.assertThat;

import com.mysql.cj.jdbc.JdbcConnection;
import dev.sluice.proxy.ProxyFixture;
import dev.sluice.proxy.ProxyServer;
import dev.sluice.testkit.MariaDbCluster;
import dev.sluice.testkit.MariaDbClusterExtension;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * COM_RESET_CONNECTION deallocates every statement prepared on the backend connection, those
 * other sessions prepared there too: the proxy must prepare them again, where it once sent their
 * old ids and the other session got 1243 (unknown prepared statement handler). Found by the
 * differential test (seed -4850463806682646652, not repeatable alone). One backend connection
 * makes both sessions share it.
 */
@ExtendWith(MariaDbClusterExtension.class)
class ResetUnderPreparedIT {

    private static ProxyServer proxy;

    @BeforeAll
    static void start(MariaDbCluster cluster) {
        proxy = ProxyFixture.start(ProxyFixture.splitOnOneConnection(cluster));
    }

    @AfterAll
    static void stop() {
        if (proxy != null) {
            proxy.close();
        }
    }

    @Test
    void anotherSessionsResetLeavesAPreparedStatementWorking() throws SQLException {
        try (Connection b = ProxyFixture.connect(proxy, "sluice_test", "");
             Connection a = ProxyFixture.connect(proxy, "sluice_test", "useServerPrepStmts=true");
             PreparedStatement select = a.prepareStatement("SELECT ? + 1")) {
            assertThat(plusOne(select, 1)).isEqualTo(2);
            try (Statement s = b.createStatement()) {
                // A user variable keeps b on the one connection, so its reset runs there.
                s.execute("SET @held = 1");
            }
            b.unwrap(JdbcConnection.class).resetServerState();
            try (Statement s = b.createStatement(); ResultSet rs = s.executeQuery("SELECT @held")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getObject(1)).as("the reset ran").isNull();
            }
            assertThat(plusOne(select, 41)).as("a's statement after b's reset").isEqualTo(42);
        }
    }

    private static long plusOne(PreparedStatement select, int value) throws SQLException {
        select.setInt(1, value);
        try (ResultSet rs = select.executeQuery()) {
            assertThat(rs.next()).isTrue();
            return rs.getLong(1);
        }
    }
}
