package dev.sluice.proxy.split;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.sluice.proxy.ProxyFixture;
import dev.sluice.proxy.ProxyServer;
import dev.sluice.testkit.MariaDbCluster;
import dev.sluice.testkit.MariaDbClusterExtension;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A split session keeps the SQL of every statement it has prepared, for as long as it lives: it
 * may hold as many as the server's default max_prepared_stmt_count, and the next gets the server's
 * error, not more of the proxy's memory.
 */
@ExtendWith(MariaDbClusterExtension.class)
class PreparedStatementLimitIT {

    private static ProxyServer proxy;

    @BeforeAll
    static void start(MariaDbCluster cluster) {
        proxy = ProxyFixture.start(SplitRoutingIT.splitConfig(cluster));
    }

    @AfterAll
    static void stop() {
        if (proxy != null) {
            proxy.close();
        }
    }

    @Test
    void thePrepareOverTheLimitGetsErr1461AndOneClosedMakesRoom() throws SQLException {
        try (Connection c = ProxyFixture.connect(proxy, "sluice_test", "useServerPrepStmts=true&cachePrepStmts=false&emulateUnsupportedPstmts=false")) {
            List<PreparedStatement> held = new ArrayList<>();
            try {
                for (int i = 0; i < SplitStatements.MAX_PER_SESSION; i++) {
                    held.add(c.prepareStatement("SELECT ? + " + i));
                }
                SQLException refused = catchThrowableOfType(SQLException.class, () -> c.prepareStatement("SELECT ? - 1"));
                assertThat((Object) refused).isNotNull();
                assertThat(refused.getErrorCode()).isEqualTo(1461);
                assertThat(refused.getMessage()).contains("max_prepared_stmt_count");
                held.remove(0).close();
                try (PreparedStatement again = c.prepareStatement("SELECT ? - 1")) {
                    again.setInt(1, 10);
                    try (ResultSet rs = again.executeQuery()) {
                        assertThat(rs.next()).isTrue();
                        assertThat(rs.getInt(1)).isEqualTo(9);
                    }
                }
                PreparedStatement last = held.get(held.size() - 1);
                last.setInt(1, 1);
                try (ResultSet rs = last.executeQuery()) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getLong(1)).isEqualTo(SplitStatements.MAX_PER_SESSION);
                }
            } finally {
                for (PreparedStatement p : held) {
                    p.close();
                }
            }
        }
    }
}
