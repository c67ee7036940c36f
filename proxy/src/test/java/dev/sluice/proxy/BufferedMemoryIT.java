package dev.sluice.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.LimitsConfig;
import dev.sluice.config.RoutingConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.testkit.MariaDbCluster;
import dev.sluice.testkit.MariaDbClusterExtension;
import dev.sluice.testkit.TestUsers;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Split mode holds a command of 16 MiB or more until it is whole; all sessions together hold at
 * most limits.buffered_memory of them. The session whose command would pass it ends with
 * ERR 1153 naming the key, the one that holds its share goes on.
 */
@ExtendWith(MariaDbClusterExtension.class)
class BufferedMemoryIT {

    private static final int MAX_PAYLOAD = 0xFFFFFF;
    private static final int COMMAND = 20 << 20;

    @Test
    void aCommandThatWouldPassTheSharedBudgetEndsItsSessionOnly(MariaDbCluster cluster) throws Exception {
        long before;
        try (Connection admin = cluster.primary().openAdmin(); Statement s = admin.createStatement();
             java.sql.ResultSet rs = s.executeQuery("SELECT @@global.max_allowed_packet")) {
            rs.next();
            before = rs.getLong(1);
            s.execute("SET GLOBAL max_allowed_packet = 64 * 1024 * 1024");
        }
        SluiceConfig base = ProxyFixture.config(ProxyFixture.backends(cluster))
                .withRouting(new RoutingConfig(RoutingConfig.Mode.SPLIT, RoutingConfig.Balancer.ROUND_ROBIN));
        LimitsConfig limits = base.limits();
        try (ProxyServer proxy = ProxyFixture.start(base.withLimits(new LimitsConfig(limits.maxClientConnections(),
                limits.backendQueueSize(), false, 64 << 20, limits.failedLoginsBeforeDelay(), 32 << 20)));
             RawClient first = new RawClient(proxy.port());
             RawClient second = new RawClient(proxy.port())) {
            assertThat(first.login(TestUsers.APP_USER, TestUsers.APP_PASSWORD).header()).isZero();
            assertThat(second.login(TestUsers.APP_USER, TestUsers.APP_PASSWORD).header()).isZero();
            byte[] command = query(COMMAND);
            // The first session's command is half there: it holds 16 MiB of the 32.
            first.send(0, Arrays.copyOfRange(command, 0, MAX_PAYLOAD));
            second.send(0, Arrays.copyOfRange(command, 0, MAX_PAYLOAD));
            second.send(1, Arrays.copyOfRange(command, MAX_PAYLOAD, command.length));
            RawClient.RawPacket refused = second.read();
            assertThat(refused.header()).isEqualTo(0xFF);
            assertThat(refused.errorCode()).isEqualTo(1153);
            assertThat(refused.errorMessage()).contains("limits.buffered_memory");
            assertThat(second.closedByPeer()).isTrue();
            first.send(1, Arrays.copyOfRange(command, MAX_PAYLOAD, command.length));
            RawClient.RawPacket answer = first.read();
            assertThat(answer.header()).as(answer.header() == 0xFF ? answer.errorMessage() : "a result")
                    .isNotEqualTo(0xFF);
        } finally {
            try (Connection admin = cluster.primary().openAdmin(); Statement s = admin.createStatement()) {
                // As it was: the shared cluster's servers start with 64M, which later tests count on
                // (DEFAULT would be the server's compiled-in 16M).
                s.execute("SET GLOBAL max_allowed_packet = " + before);
            } catch (SQLException ignored) {
                // the server's own setting stays either way for the next login
            }
        }
    }

    /** COM_QUERY of {@code length} bytes in all: SELECT LENGTH('xxx...'). */
    private static byte[] query(int length) {
        byte[] head = "\u0003SELECT LENGTH('".getBytes(StandardCharsets.US_ASCII);
        byte[] command = new byte[length];
        Arrays.fill(command, (byte) 'x');
        System.arraycopy(head, 0, command, 0, head.length);
        command[length - 2] = '\'';
        command[length - 1] = ')';
        return command;
    }
}
