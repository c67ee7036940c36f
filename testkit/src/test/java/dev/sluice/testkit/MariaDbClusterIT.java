package dev.sluice.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The shared default cluster: topology, replication, accounts and server options. */
@ExtendWith(MariaDbClusterExtension.class)
class MariaDbClusterIT {

    private static final int ER_OPTION_PREVENTS_STATEMENT = 1290;
    private static final int ER_DBACCESS_DENIED_ERROR = 1044;

    @Test
    void startsAPrimaryAndTwoReplicasOnLoopbackPorts(MariaDbCluster cluster) throws SQLException {
        System.out.println("MariaDB cluster start-up took " + cluster.startupTime().toMillis() + " ms: " + cluster);
        assertThat(cluster.startupTime()).isPositive();

        assertThat(cluster.primary().name()).isEqualTo("primary");
        assertThat(cluster.primary().role()).isEqualTo(Role.PRIMARY);
        assertThat(cluster.replicas()).extracting(MariaDbServer::name).containsExactly("replica1", "replica2");
        assertThat(cluster.replicas()).extracting(MariaDbServer::role).containsOnly(Role.REPLICA);
        assertThat(cluster.servers()).first().isSameAs(cluster.primary());
        assertThat(cluster.servers()).extracting(MariaDbServer::host).containsOnly("127.0.0.1");
        assertThat(cluster.servers()).extracting(MariaDbServer::port).doesNotHaveDuplicates().allMatch(p -> p > 0);

        Set<Long> serverIds = new HashSet<>();
        for (MariaDbServer server : cluster.servers()) {
            assertThat(server.isRunning()).isTrue();
            assertThat(server.socket()).exists();
            try (Connection connection = server.openAdmin(); Statement statement = connection.createStatement();
                    ResultSet row = statement.executeQuery("SELECT @@server_id, @@read_only, @@version, @@log_bin")) {
                row.next();
                serverIds.add(row.getLong(1));
                assertThat(row.getBoolean(2)).as("read_only of %s", server.name())
                        .isEqualTo(server.role() == Role.REPLICA);
                assertThat(row.getString(3)).startsWith("11.4.5-MariaDB");
                assertThat(row.getBoolean(4)).isTrue();
            }
        }
        assertThat(serverIds).hasSize(3);
    }

    @Test
    void aRowWrittenOnThePrimaryIsReadOnEveryReplica(MariaDbCluster cluster) throws SQLException {
        try (Connection primary = DriverManager.getConnection(cluster.primary().jdbcUrl(TestUsers.TEST_SCHEMA));
                Statement statement = primary.createStatement()) {
            statement.execute("CREATE TABLE replicated (id INT PRIMARY KEY, note VARCHAR(40))");
            statement.execute("INSERT INTO replicated VALUES (1, 'from the primary')");
        }
        for (MariaDbServer replica : cluster.replicas()) {
            await().atMost(Duration.ofSeconds(5)).untilAsserted(() ->
                    assertThat(queryString(replica, "SELECT note FROM replicated WHERE id = 1"))
                            .isEqualTo("from the primary"));
        }
    }

    @Test
    void aWriteOnAReplicaFailsBecauseOfReadOnly(MariaDbCluster cluster) throws SQLException {
        execute(cluster.primary(), "CREATE TABLE read_only_target (id INT PRIMARY KEY)");
        cluster.awaitReplicaCatchUp(Duration.ofSeconds(5));

        MariaDbServer replica = cluster.replicas().get(0);
        assertThatThrownBy(() -> execute(replica, "INSERT INTO read_only_target VALUES (1)"))
                .isInstanceOfSatisfying(SQLException.class, e -> {
                    assertThat(e.getErrorCode()).isEqualTo(ER_OPTION_PREVENTS_STATEMENT);
                    assertThat(e.getMessage()).contains("--read-only");
                });
    }

    @Test
    void theAppUserLogsInOverTcpWithMysqlNativePassword(MariaDbCluster cluster) throws SQLException {
        for (MariaDbServer server : cluster.servers()) {
            try (Connection connection = DriverManager.getConnection(server.jdbcUrl(null));
                    Statement statement = connection.createStatement();
                    ResultSet row = statement.executeQuery("SELECT CURRENT_USER(), u.plugin, p.HOST"
                            + " FROM mysql.user u, information_schema.PROCESSLIST p"
                            + " WHERE u.User = 'app' AND p.ID = CONNECTION_ID()")) {
                assertThat(row.next()).isTrue();
                assertThat(row.getString(1)).isEqualTo("app@%");
                assertThat(row.getString(2)).isEqualTo("mysql_native_password");
                assertThat(row.getString(3)).as("client address: TCP from loopback").startsWith("127.0.0.1:");
            }
        }
    }

    @Test
    void app2MayUseOnlyTheTestSchema(MariaDbCluster cluster) throws SQLException {
        MariaDbServer primary = cluster.primary();
        String url = primary.jdbcUrl(TestUsers.TEST_SCHEMA, TestUsers.APP2_USER, TestUsers.APP2_PASSWORD);
        try (Connection connection = DriverManager.getConnection(url); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE app2_table (id INT)");
            assertThatThrownBy(() -> statement.execute("CREATE DATABASE app2_elsewhere"))
                    .isInstanceOfSatisfying(SQLException.class,
                            e -> assertThat(e.getErrorCode()).isEqualTo(ER_DBACCESS_DENIED_ERROR));
        }
    }

    @Test
    void everyServerHasTheAccountsAndNoAnonymousUser(MariaDbCluster cluster) throws SQLException {
        for (MariaDbServer server : cluster.servers()) {
            assertThat(queryString(server, "SELECT COUNT(*) FROM mysql.user WHERE User = ''")).isEqualTo("0");
            assertThat(queryString(server, "SELECT GROUP_CONCAT(User ORDER BY User) FROM mysql.user"
                    + " WHERE User IN ('app', 'app2', 'sluice_admin', 'sluice_repl')"))
                    .isEqualTo("app,app2,sluice_admin,sluice_repl");
            // The ed25519 account exists exactly where the plugin does (the bundle has no plugin files).
            assertThat(queryString(server, "SELECT COUNT(*) FROM mysql.user WHERE User = 'ed'"))
                    .isEqualTo(server.hasPlugin("ed25519") ? "1" : "0");
        }
    }

    @Test
    void serversRunWithTheRequiredOptions(MariaDbCluster cluster) throws SQLException {
        for (MariaDbServer server : cluster.servers()) {
            assertThat(queryString(server, "SELECT CONCAT_WS(' ', @@local_infile, @@max_allowed_packet,"
                    + " @@max_connections, @@gtid_strict_mode, @@bind_address)"))
                    .isEqualTo("ON 67108864 2000 ON 127.0.0.1");
            assertThat(queryString(server, "SELECT GLOBAL_VALUE = DEFAULT_VALUE FROM information_schema.SYSTEM_VARIABLES"
                    + " WHERE VARIABLE_NAME = 'SESSION_TRACK_SYSTEM_VARIABLES'"))
                    .as("session_track_system_variables left at its default").isEqualTo("1");
        }
    }

    @Test
    void serversSpeakTls(MariaDbCluster cluster) throws SQLException {
        Properties properties = new Properties();
        properties.setProperty("sslMode", "REQUIRED");
        try (Connection connection = DriverManager.getConnection(cluster.primary().jdbcUrl(null), properties);
                Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery("SHOW SESSION STATUS LIKE 'Ssl_version'")) {
            assertThat(row.next()).isTrue();
            assertThat(row.getString(2)).startsWith("TLSv1.");
        }
    }

    @Test
    void globalStatusCountsTheStatementsOfOthersButNotItsOwn(MariaDbCluster cluster) throws SQLException {
        MariaDbServer replica = cluster.replicas().get(1);
        try (Connection connection = DriverManager.getConnection(replica.jdbcUrl(null));
                Statement statement = connection.createStatement()) {
            long before = replica.globalStatus("Com_select");
            for (int i = 0; i < 5; i++) {
                statement.executeQuery("SELECT " + i).close();
            }
            assertThat(replica.globalStatus("Com_select")).isEqualTo(before + 5);
        }
        Map<String, Long> status = replica.globalStatus();
        assertThat(status).containsKeys("Com_select", "Uptime", "Threads_connected");
        assertThat(status.get("Uptime")).as("seconds since start, 0 right after it").isNotNegative();
        assertThatThrownBy(() -> replica.globalStatus("No_such_counter"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("replica2: status variable 'No_such_counter' does not exist");
    }

    @Test
    void reportsEnginesAndPlugins(MariaDbCluster cluster) throws SQLException {
        MariaDbServer primary = cluster.primary();
        assertThat(primary.hasEngine("InnoDB")).isTrue();
        assertThat(primary.hasEngine("NoSuchEngine")).isFalse();
        assertThat(primary.hasPlugin("mysql_native_password")).isTrue();
        String blackhole = queryString(primary,
                "SELECT COUNT(*) FROM information_schema.ENGINES WHERE ENGINE = 'BLACKHOLE' AND SUPPORT = 'YES'");
        assertThat(primary.hasEngine("BLACKHOLE")).isEqualTo("1".equals(blackhole));
    }

    @Test
    void aStoppedSqlThreadHoldsChangesBackUntilItStartsAgain(MariaDbCluster cluster) throws SQLException {
        MariaDbServer held = cluster.replicas().get(0);
        MariaDbServer other = cluster.replicas().get(1);
        execute(cluster.primary(), "CREATE TABLE held_back (id INT PRIMARY KEY)");
        cluster.awaitReplicaCatchUp(Duration.ofSeconds(5));
        assertThat(held.replicaLagSeconds()).isZero();

        held.stopReplicaSqlThread();
        try {
            execute(cluster.primary(), "INSERT INTO held_back VALUES (1)");
            await().atMost(Duration.ofSeconds(5)).untilAsserted(() ->
                    assertThat(queryString(other, "SELECT COUNT(*) FROM held_back")).isEqualTo("1"));
            assertThat(queryString(held, "SELECT COUNT(*) FROM held_back")).isEqualTo("0");
            assertThat(held.replicaLagSeconds()).as("unknown while the SQL thread is stopped").isNull();
            assertThatThrownBy(() -> cluster.awaitReplicaCatchUp(Duration.ofMillis(200)))
                    .isInstanceOf(MariaDbException.class)
                    .hasMessageContaining("replica1 has not applied")
                    .hasMessageContaining("Slave_SQL_Running=No");
        } finally {
            held.startReplicaSqlThread();
        }
        cluster.awaitReplicaCatchUp(Duration.ofSeconds(5));
        assertThat(queryString(held, "SELECT COUNT(*) FROM held_back")).isEqualTo("1");
    }

    @Test
    void replicaDelayIsSetAndCleared(MariaDbCluster cluster) throws SQLException {
        MariaDbServer replica = cluster.replicas().get(1);
        replica.setReplicaDelay(7);
        try {
            try (Connection connection = replica.openAdmin(); Statement statement = connection.createStatement();
                    ResultSet status = statement.executeQuery("SHOW SLAVE STATUS")) {
                status.next();
                assertThat(status.getInt("SQL_Delay")).isEqualTo(7);
                assertThat(status.getString("Slave_SQL_Running")).isEqualTo("Yes");
            }
        } finally {
            replica.setReplicaDelay(0);
        }
        // The IO thread reconnects to the primary after the restart of replication.
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() ->
                assertThat(queryString(replica, "SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS"
                        + " WHERE VARIABLE_NAME = 'SLAVE_RUNNING'")).isEqualTo("ON"));
        assertThatThrownBy(() -> replica.setReplicaDelay(-1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void replicaHelpersRefuseThePrimary(MariaDbCluster cluster) {
        assertThatThrownBy(() -> cluster.primary().stopReplicaSqlThread())
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("stopReplicaSqlThread: primary is the PRIMARY, not a replica");
        assertThatThrownBy(() -> cluster.primary().replicaLagSeconds()).isInstanceOf(IllegalStateException.class);
    }

    static void execute(MariaDbServer server, String sql) throws SQLException {
        try (Connection connection = DriverManager.getConnection(server.jdbcUrl(TestUsers.TEST_SCHEMA));
                Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    static String queryString(MariaDbServer server, String sql) throws SQLException {
        try (Connection connection = DriverManager.getConnection(server.jdbcUrl(TestUsers.TEST_SCHEMA));
                Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery(sql)) {
            assertThat(row.next()).as("a row from: %s", sql).isTrue();
            return row.getString(1);
        }
    }
}
