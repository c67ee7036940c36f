package dev.sluice.testkit;

import static dev.sluice.testkit.MariaDbClusterIT.execute;
import static dev.sluice.testkit.MariaDbClusterIT.queryString;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** A cluster of its own, since these tests stop and kill servers. */
class MariaDbClusterLifecycleIT {

    private static MariaDbCluster cluster;

    @BeforeAll
    static void startCluster() {
        cluster = MariaDbCluster.start(ClusterSpec.builder()
                .replicas(1)
                .maxConnections(3000)
                .extraServerArgs("--wait-timeout=1234")
                .build());
    }

    @AfterAll
    static void closeCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void appliesTheSpecToEveryServer() throws SQLException {
        assertThat(cluster.servers()).hasSize(2);
        for (MariaDbServer server : cluster.servers()) {
            assertThat(queryString(server, "SELECT CONCAT(@@max_connections, ' ', @@wait_timeout)"))
                    .isEqualTo("3000 1234");
        }
    }

    @Test
    void aStoppedReplicaStartsOnTheSamePortAndCatchesUp() throws SQLException {
        MariaDbServer replica = cluster.replicas().get(0);
        int port = replica.port();
        execute(cluster.primary(), "CREATE TABLE while_stopped (id INT PRIMARY KEY)");

        replica.stop();
        assertThat(replica.isRunning()).isFalse();
        execute(cluster.primary(), "INSERT INTO while_stopped VALUES (1), (2), (3)");
        replica.start();

        assertThat(replica.isRunning()).isTrue();
        assertThat(replica.port()).isEqualTo(port);
        cluster.awaitReplicaCatchUp(Duration.ofSeconds(10));
        assertThat(queryString(replica, "SELECT COUNT(*) FROM while_stopped")).isEqualTo("3");
        assertThat(replica.replicaLagSeconds()).isNotNull();
    }

    @Test
    void killLeavesThePortClosedAndStartRecovers() throws SQLException {
        MariaDbServer replica = cluster.replicas().get(0);
        long pid = replica.pid();
        int port = replica.port();

        replica.kill();

        assertThat(replica.isRunning()).isFalse();
        assertThat(ProcessHandle.of(pid).filter(ProcessHandle::isAlive)).isEmpty();
        assertThatThrownBy(() -> connect(port)).isInstanceOf(ConnectException.class);
        assertThatThrownBy(replica::pid).isInstanceOf(IllegalStateException.class);

        execute(cluster.primary(), "CREATE TABLE after_kill (id INT PRIMARY KEY)");
        replica.start(); // InnoDB crash recovery, then replication resumes
        cluster.awaitReplicaCatchUp(Duration.ofSeconds(10));
        assertThat(queryString(replica, "SELECT COUNT(*) FROM information_schema.TABLES"
                + " WHERE TABLE_NAME = 'after_kill'")).isEqualTo("1");
    }

    @Test
    void catchUpSkipsAReplicaThatIsDown() throws SQLException {
        MariaDbServer replica = cluster.replicas().get(0);
        replica.stop();
        try {
            execute(cluster.primary(), "CREATE TABLE while_down (id INT)");
            cluster.awaitReplicaCatchUp(Duration.ofSeconds(1));
        } finally {
            replica.start();
        }
        cluster.awaitReplicaCatchUp(Duration.ofSeconds(10));
    }

    @Test
    void closeStopsEveryServerAndDeletesTheFolders() throws SQLException {
        MariaDbCluster own = MariaDbCluster.start(ClusterSpec.builder().replicas(0).createTestSchema(false).build());
        Path folder = own.folder();
        List<Long> pids = own.servers().stream().map(MariaDbServer::pid).toList();
        int port = own.primary().port();
        assertThat(folder).isDirectory();
        try (Connection connection = own.primary().openAdmin(); Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery(
                        "SELECT COUNT(*) FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = 'sluice_test'")) {
            row.next();
            assertThat(row.getInt(1)).as("no test schema when createTestSchema(false)").isZero();
        }

        own.close();
        own.close(); // a second close is harmless

        assertThat(folder).doesNotExist();
        assertThat(pids).allSatisfy(pid -> assertThat(ProcessHandle.of(pid).filter(ProcessHandle::isAlive)).isEmpty());
        assertThatThrownBy(() -> connect(port)).isInstanceOf(ConnectException.class);
    }

    @Test
    void refusesMaxConnectionsTheOpenFileLimitCannotCover() {
        ClusterSpec tooMany = ClusterSpec.builder().replicas(0).maxConnections(100_000).createTestSchema(false).build();
        assertThatThrownBy(() -> MariaDbCluster.start(tooMany))
                .isInstanceOf(MariaDbException.class)
                .hasMessageMatching("primary: max_connections is \\d+, requested 100000; "
                        + "the open-file limit \\(\\d+\\) is too low for it");
    }

    private static void connect(int port) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(MariaDbServer.HOST, port), 2000);
        }
    }
}
