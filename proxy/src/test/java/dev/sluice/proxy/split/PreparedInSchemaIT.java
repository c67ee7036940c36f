package dev.sluice.proxy.split;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.proxy.ProxyFixture;
import dev.sluice.proxy.ProxyServer;
import dev.sluice.testkit.MariaDbCluster;
import dev.sluice.testkit.MariaDbClusterExtension;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The server runs a prepared statement in the schema it was prepared in: a USE after the prepare
 * does not change which table it reads (nor, on MariaDB 11.4, what its DATABASE() says). Split mode
 * prepares a statement again on each connection its executes go to (here both replicas, in turn),
 * so it must do so in that schema too. Found by the differential test (seed -326310281488869057).
 */
@ExtendWith(MariaDbClusterExtension.class)
class PreparedInSchemaIT {

    private static final String QUERY = "SELECT v, DATABASE() FROM t";
    /** Prepared on the server (COM_STMT_PREPARE), not in the driver. */
    private static final String OPTIONS = "useServerPrepStmts=true&cachePrepStmts=false";

    @Test
    void aStatementPreparedBeforeAUseReadsTheTableOfItsSchemaEverywhere(MariaDbCluster cluster) throws Exception {
        createSchemas(cluster);
        List<String> direct;
        try (Connection c = DriverManager.getConnection(cluster.primary().jdbcUrl("sluice_prep_a") + "&" + OPTIONS)) {
            direct = preparedThenUse(c);
        }
        assertThat(direct).as("the server's answers: the table of the schema it was prepared in").hasSize(5)
                .allMatch(answer -> answer.startsWith("a "));
        try (ProxyServer proxy = ProxyFixture.start(SplitRoutingIT.splitConfig(cluster));
             Connection c = ProxyFixture.connect(proxy, "sluice_prep_a", OPTIONS)) {
            assertThat(preparedThenUse(c)).isEqualTo(direct);
        }
    }

    /**
     * Each such execution reports the session's schema back, with the flag that session state
     * changed (the server switched to the statement's schema and back): no state of the session's
     * is left on the replica it ran on, so a write after it goes to the primary as any other.
     * Found by the differential test (seed -6783054435281430092), where split mode took the flag
     * for state it could not see and tied the session to that replica.
     */
    @Test
    void executionsInAnotherSchemaLeaveTheSessionFreeToWrite(MariaDbCluster cluster) throws Exception {
        createSchemas(cluster);
        try (ProxyServer proxy = ProxyFixture.start(SplitRoutingIT.splitConfig(cluster));
             Connection c = ProxyFixture.connect(proxy, "sluice_prep_a", OPTIONS); Statement s = c.createStatement()) {
            assertThat(preparedThenUse(c)).allMatch(answer -> answer.startsWith("a "));
            assertThat(s.executeUpdate("INSERT INTO t VALUES ('written')")).isOne();
            try (ResultSet rs = s.executeQuery("/* sluice:primary */ SELECT COUNT(*) FROM sluice_prep_b.t WHERE v = 'written'")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getInt(1)).isOne();
            }
        }
    }

    /** sluice_prep_a and sluice_prep_b, each with a table t of one row that names its schema, on every server. */
    private static void createSchemas(MariaDbCluster cluster) throws SQLException {
        try (Connection c = cluster.primary().openAdmin(); Statement s = c.createStatement()) {
            for (String name : List.of("a", "b")) {
                s.execute("CREATE DATABASE IF NOT EXISTS sluice_prep_" + name);
                s.execute("CREATE OR REPLACE TABLE sluice_prep_" + name + ".t (v VARCHAR(8))");
                s.execute("INSERT INTO sluice_prep_" + name + ".t VALUES ('" + name + "')");
            }
        }
        cluster.awaitReplicaCatchUp(Duration.ofSeconds(10));
    }

    /** Prepares in sluice_prep_a, executes, then USE sluice_prep_b and executes four times more. */
    private static List<String> preparedThenUse(Connection c) throws SQLException {
        List<String> answers = new ArrayList<>();
        try (Statement s = c.createStatement()) {
            s.execute("USE sluice_prep_a");
            try (PreparedStatement ps = c.prepareStatement(QUERY)) {
                answers.add(one(ps));
                s.execute("USE sluice_prep_b");
                for (int i = 0; i < 4; i++) {
                    answers.add(one(ps));
                }
            }
        }
        return answers;
    }

    private static String one(PreparedStatement ps) throws SQLException {
        try (ResultSet rs = ps.executeQuery()) {
            assertThat(rs.next()).isTrue();
            return rs.getString(1) + " " + rs.getString(2);
        }
    }
}
