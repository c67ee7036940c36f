package dev.sluice.proxy.clients;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;

/** What a test does on one connection, returning what the client saw so two runs can be compared. */
@FunctionalInterface
interface Scenario {

    List<StatementResult> run(Connection connection) throws SQLException;

    /**
     * Runs this on a direct connection, then through the proxy, each with its own URL but the same
     * credentials, and returns the results through the proxy once they equal the direct ones.
     */
    default List<StatementResult> sameBothWays(String directUrl, String proxyUrl, String user, String password)
            throws SQLException {
        List<StatementResult> direct;
        try (Connection c = DriverManager.getConnection(directUrl, user, password)) {
            direct = run(c);
        }
        List<StatementResult> proxied;
        try (Connection c = DriverManager.getConnection(proxyUrl, user, password)) {
            proxied = run(c);
        }
        org.assertj.core.api.Assertions.assertThat(proxied).as("through the proxy (%s) vs direct (%s)", proxyUrl, directUrl)
                .isEqualTo(direct);
        return proxied;
    }
}
