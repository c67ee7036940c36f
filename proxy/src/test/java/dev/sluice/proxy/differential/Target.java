package dev.sluice.proxy.differential;

import dev.sluice.testkit.TestUsers;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.Locale;

/**
 * Where a session connects: straight to the primary (the reference) or through the proxy in one
 * of its modes. All share the same MariaDB cluster.
 *
 * @param kind which one
 * @param port the TCP port on 127.0.0.1
 */
record Target(Kind kind, int port) {

    enum Kind {
        DIRECT, SESSION, SPLIT;

        String configName() {
            return name().toLowerCase(Locale.ROOT);
        }

        static Kind named(String name) {
            return Arrays.stream(values()).filter(k -> k.configName().equals(name)).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("sluice.diff.targets: unknown target '" + name
                            + "' (expected: session, split, or direct to check the test itself: a second direct"
                            + " run must see the same as the first)"));
        }
    }

    /** A Connector/J connection as {@link TestUsers#APP_USER} to {@code database}, with extra URL options. */
    Connection open(String database, String options) throws SQLException {
        return DriverManager.getConnection("jdbc:mysql://127.0.0.1:" + port + "/" + database
                + "?sslMode=DISABLED&allowPublicKeyRetrieval=true" + (options.isEmpty() ? "" : "&" + options),
                TestUsers.APP_USER, TestUsers.APP_PASSWORD);
    }

    String name() {
        return kind.configName();
    }
}
