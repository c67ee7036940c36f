package dev.sluice.proxy.split;

import static dev.sluice.proxy.split.EmbeddedBackends.answer;
import static dev.sluice.proxy.split.EmbeddedBackends.backend;
import static dev.sluice.proxy.testing.Written.drain;
import static dev.sluice.proxy.split.EmbeddedBackends.sent;
import static dev.sluice.proxy.testing.ServerPackets.TRACKING_CAPABILITIES;
import static dev.sluice.proxy.testing.ServerPackets.command;
import static dev.sluice.proxy.testing.ServerPackets.frame;
import static dev.sluice.proxy.testing.ServerPackets.ok;
import static dev.sluice.proxy.testing.ServerPackets.variable;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.BackendConfig;
import dev.sluice.config.ConfigLoader;
import dev.sluice.config.RoutingConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.protocol.Commands;
import dev.sluice.protocol.ServerStatus;
import dev.sluice.protocol.Wire;
import dev.sluice.protocol.auth.AuthPlugins;
import dev.sluice.protocol.frame.RawPacketDecoder;
import dev.sluice.protocol.packet.ColumnCount;
import dev.sluice.protocol.packet.ColumnDefinition41;
import dev.sluice.protocol.packet.ColumnTypes;
import dev.sluice.protocol.packet.EofPacket;
import dev.sluice.protocol.packet.ServerPacket;
import dev.sluice.protocol.packet.SessionStateChange;
import dev.sluice.proxy.auth.AuthWork;
import dev.sluice.proxy.auth.ClientAuth;
import dev.sluice.proxy.auth.FailedLogins;
import dev.sluice.proxy.backend.Backend;
import dev.sluice.proxy.backend.BackendPool;
import dev.sluice.proxy.backend.FakeConnector;
import dev.sluice.proxy.backend.KillConnections;
import dev.sluice.proxy.backend.LoginRequest;
import dev.sluice.proxy.backend.ServerFlavor;
import dev.sluice.proxy.backend.TrackedConnection;
import dev.sluice.proxy.balance.Balancer;
import dev.sluice.proxy.gtid.AcknowledgedWrites;
import dev.sluice.proxy.kill.Kills;
import dev.sluice.proxy.kill.LiveSessions;
import dev.sluice.proxy.memory.MemoryBudget;
import dev.sluice.proxy.observe.Observers;
import dev.sluice.proxy.routing.PrimaryStatus;
import dev.sluice.proxy.routing.SplitRouter;
import dev.sluice.proxy.session.ClientConnections;
import dev.sluice.proxy.session.CommandPhase;
import dev.sluice.proxy.session.SessionServices;
import dev.sluice.proxy.sql.SqlReaders;
import dev.sluice.proxy.stats.ProxyStats;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Split mode with {@code read_your_writes: gtid} in front of MySQL servers, driven with bytes: the
 * connections turn on MySQL's GTID tracker, a write's OK reports its GTID set, and a read on a
 * replica first waits with WAIT_FOR_EXECUTED_GTID_SET; 1 (timeout) sends the read to the primary.
 * The same with MariaDB servers keeps last_gtid and MASTER_GTID_WAIT.
 */
class MySqlGtidSplitTest {

    private static final String UUID = "3e11fa47-71ca-11e1-9e33-c80aa9429562";
    private static final byte[] TRACKING_OK = ok(1, ServerStatus.AUTOCOMMIT,
            variable("character_set_client", "utf8mb4"), variable("character_set_results", "utf8mb4"),
            variable("collation_connection", "utf8mb4_0900_ai_ci"));

    private final SluiceConfig config = ConfigLoader.parse("""
            users: [{name: app, password: secret}]
            backends:
              - {name: p, address: 127.0.0.1:3306}
              - {name: r1, address: 127.0.0.1:3307, role: replica}
            routing: {mode: split, read_your_writes: gtid, gtid_wait_timeout: 2s}
            """, "test.yaml");
    private final Backend primary = backend("p", BackendConfig.Role.PRIMARY);
    private final Backend replica = backend("r1", BackendConfig.Role.REPLICA);
    private final FakeConnector connector = new FakeConnector();
    private final Map<Backend, BackendPool> pools = new LinkedHashMap<>();
    private final AuthWork authWork = new AuthWork(1);
    private final EmbeddedChannel client = new EmbeddedChannel();

    @AfterEach
    void releaseEverything() {
        client.finishAndReleaseAll();
        pools.values().forEach(BackendPool::close);
        client.runPendingTasks();
        connector.channels().forEach(EmbeddedChannel::finishAndReleaseAll);
        authWork.close();
    }

    @Test
    void aReadWaitsOnTheReplicaForTheWritesGtidSet() {
        start();
        TrackedConnection onPrimary = write(ServerFlavor.MYSQL, "INSERT INTO t VALUES (1)",
                new SessionStateChange.Gtids(0, UUID.toUpperCase() + ":23"));

        client.writeInbound(Unpooled.wrappedBuffer(command(Commands.COM_QUERY, "SELECT * FROM t")));
        assertThat(connector.nextBackend()).isSameAs(replica);
        TrackedConnection onReplica = connector.completeTracked(TRACKING_CAPABILITIES, TRACKING_OK, ServerFlavor.MYSQL);
        assertThat(text(sent(onReplica))).as("the wait first")
                .endsWith("SELECT WAIT_FOR_EXECUTED_GTID_SET('" + UUID + ":23', 2.0)");
        answer(onReplica, oneValue("0"));
        assertThat(text(sent(onReplica))).as("got there: the read runs on the replica").endsWith("SELECT * FROM t");
        answer(onReplica, ok());
        toClient();
        assertThat(onPrimary.channel().isOpen()).isTrue();

        write(onPrimary, "INSERT INTO t VALUES (2)", new SessionStateChange.Gtids(0, UUID + ":25"));
        client.writeInbound(Unpooled.wrappedBuffer(command(Commands.COM_QUERY, "SELECT * FROM t")));
        assertThat(text(sent(onReplica))).as("every GTID the session wrote")
                .endsWith("SELECT WAIT_FOR_EXECUTED_GTID_SET('" + UUID + ":23:25', 2.0)");
        answer(onReplica, oneValue("1"));
        assertThat(sent(onReplica)).as("timed out: not here").isEmpty();
        assertThat(text(sent(onPrimary))).as("but on the primary").endsWith("SELECT * FROM t");
        answer(onPrimary, ok());
        assertThat(toClient()).isNotEmpty();
    }

    @Test
    void mySqlConnectionsTurnOnTheGtidTrackerAndMariaDbOnesDoNot() {
        start();
        write(ServerFlavor.MYSQL, "INSERT INTO t VALUES (1)");
        assertThat(connector.trackingStatement()).contains("session_track_system_variables = '*'")
                .contains("session_track_gtids = OWN_GTID");

        client.writeInbound(Unpooled.wrappedBuffer(command(Commands.COM_QUERY, "SELECT 1")));
        connector.completeTracked(TRACKING_CAPABILITIES, TRACKING_OK, ServerFlavor.MARIADB);
        assertThat(connector.trackingStatement()).contains("session_track_system_variables = '*'")
                .doesNotContain("session_track_gtids");
    }

    @Test
    void mariaDbKeepsLastGtidAndMasterGtidWait() {
        start();
        write(ServerFlavor.MARIADB, "INSERT INTO t VALUES (1)", variable("last_gtid", "0-1-42"));

        client.writeInbound(Unpooled.wrappedBuffer(command(Commands.COM_QUERY, "SELECT * FROM t")));
        TrackedConnection onReplica = connector.completeTracked(TRACKING_CAPABILITIES, TRACKING_OK, ServerFlavor.MARIADB);
        assertThat(text(sent(onReplica))).endsWith("SELECT MASTER_GTID_WAIT('0-1-42', 2.0)");
        answer(onReplica, oneValue("0"));
        assertThat(text(sent(onReplica))).endsWith("SELECT * FROM t");
        answer(onReplica, ok());
        toClient();
    }

    // ---- helpers ----

    private void start() {
        for (Backend backend : List.of(primary, replica)) {
            pools.put(backend, new BackendPool(backend, connector, 10, Duration.ofSeconds(5)));
        }
        SplitRouter router = new SplitRouter(List.of(primary, replica), () -> Balancer.of(RoutingConfig.Balancer.ROUND_ROBIN));
        SplitBackends backends = new SplitBackends(router, pools::get, () -> List.of(primary, replica),
                new PrimaryStatus(), new AcknowledgedWrites());
        ClientAuth auth = new ClientAuth(() -> config, AuthPlugins.standard(), null, authWork, new FailedLogins(3));
        SessionServices services = new SessionServices(() -> config, new Kills(new LiveSessions(), new KillConnections(),
                connector, () -> config), new Observers(), new ClientConnections(), new ProxyStats(),
                MemoryBudget.unlimited(), new SqlReaders());
        LoginRequest login = new LoginRequest("app", "secret".getBytes(StandardCharsets.UTF_8), 0, 45, null);
        SplitPath path = new SplitPath(backends, auth, config.routing(), TRACKING_CAPABILITIES, login, null, new byte[20],
                false);
        client.pipeline().addLast("frames", new RawPacketDecoder());
        client.pipeline().addLast("session", new CommandPhase(services, client, 7, path));
    }

    /** The session's first write, on a new primary connection of {@code flavor}, answered with an OK reporting {@code state}. */
    private TrackedConnection write(ServerFlavor flavor, String sql, SessionStateChange... state) {
        client.writeInbound(Unpooled.wrappedBuffer(command(Commands.COM_QUERY, sql)));
        assertThat(connector.nextBackend()).isSameAs(primary);
        TrackedConnection connection = connector.completeTracked(TRACKING_CAPABILITIES, TRACKING_OK, flavor);
        answerWrite(connection, sql, state);
        return connection;
    }

    /** A later write on the primary connection the pool kept. */
    private void write(TrackedConnection onPrimary, String sql, SessionStateChange... state) {
        client.writeInbound(Unpooled.wrappedBuffer(command(Commands.COM_QUERY, sql)));
        answerWrite(onPrimary, sql, state);
    }

    private void answerWrite(TrackedConnection connection, String sql, SessionStateChange... state) {
        assertThat(text(sent(connection))).endsWith(sql);
        answer(connection, ok(1, ServerStatus.AUTOCOMMIT, state));
        toClient();
    }

    /** A one-column, one-row text result set without CLIENT_DEPRECATE_EOF: the wait's answer. */
    private static byte[] oneValue(String value) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(packet(1, new ColumnCount(1, ColumnCount.METADATA_FULL, TRACKING_CAPABILITIES)));
        out.writeBytes(packet(2, new ColumnDefinition41("def", "", "", "", "wait", "", null, 63, 21, ColumnTypes.LONGLONG,
                ColumnDefinition41.BINARY_FLAG, 0, null)));
        out.writeBytes(packet(3, new EofPacket(0, ServerStatus.AUTOCOMMIT)));
        ByteBuf row = Unpooled.buffer();
        Wire.writeBytesLenenc(row, value.getBytes(StandardCharsets.US_ASCII));
        out.writeBytes(frame(4, ByteBufUtil.getBytes(row)));
        row.release();
        out.writeBytes(packet(5, new EofPacket(0, ServerStatus.AUTOCOMMIT)));
        return out.toByteArray();
    }

    private static byte[] packet(int sequenceId, ServerPacket packet) {
        ByteBuf body = Unpooled.buffer();
        packet.encode(body);
        byte[] payload = ByteBufUtil.getBytes(body);
        body.release();
        return frame(sequenceId, payload);
    }

    private static String text(byte[] frames) {
        return new String(frames, StandardCharsets.UTF_8);
    }

    private byte[] toClient() {
        return drain(client);
    }
}
