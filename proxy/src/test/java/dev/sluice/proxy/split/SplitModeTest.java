package dev.sluice.proxy.split;

import static dev.sluice.proxy.split.EmbeddedBackends.answer;
import static dev.sluice.proxy.split.EmbeddedBackends.backend;
import static dev.sluice.proxy.testing.Written.drain;
import static dev.sluice.proxy.split.EmbeddedBackends.sent;
import static dev.sluice.proxy.testing.ServerPackets.command;
import static dev.sluice.proxy.testing.ServerPackets.ok;
import static dev.sluice.proxy.testing.ServerPackets.variable;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.BackendConfig;
import dev.sluice.config.ConfigLoader;
import dev.sluice.config.RoutingConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.protocol.Commands;
import dev.sluice.protocol.ServerStatus;
import dev.sluice.protocol.auth.AuthPlugins;
import dev.sluice.protocol.frame.RawPacketDecoder;
import dev.sluice.protocol.packet.ErrPacket;
import dev.sluice.proxy.auth.AuthWork;
import dev.sluice.proxy.auth.ClientAuth;
import dev.sluice.proxy.auth.FailedLogins;
import dev.sluice.proxy.backend.Backend;
import dev.sluice.proxy.backend.BackendPool;
import dev.sluice.proxy.backend.FakeConnector;
import dev.sluice.proxy.backend.KillConnections;
import dev.sluice.proxy.backend.LoginRequest;
import dev.sluice.proxy.backend.TrackedConnection;
import dev.sluice.proxy.gtid.AcknowledgedWrites;
import dev.sluice.proxy.balance.Balancer;
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
import dev.sluice.proxy.testing.CapturedExchanges;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Split mode's state machine driven with bytes: a client on an {@link EmbeddedChannel}, a primary
 * and two replicas whose connections the test opens ({@link FakeConnector}) and answers, with the
 * responses a MariaDB server gave the mariadb client in a capture and, for what the capture has
 * not (session-state reports), OKs built as MariaDB sends them. Reads go to replicas and their
 * connection back to the pool; state that cannot move pins the session; session variables are
 * replayed where the next statement runs; a lost replica's read runs again elsewhere, a lost
 * transaction ends the session.
 */
class SplitModeTest {

    private static final CapturedExchanges TEXT = CapturedExchanges.of("text-resultset.pcapng");
    /** What a fresh connection's login left the character set variables at (reported on request). */
    private static final byte[] TRACKING_OK = ok(1, ServerStatus.AUTOCOMMIT,
            variable("character_set_client", "utf8mb4"), variable("character_set_results", "utf8mb4"),
            variable("collation_connection", "utf8mb4_general_ci"));

    private final SluiceConfig config = ConfigLoader.parse("""
            users: [{name: app, password: secret}]
            backends:
              - {name: p, address: 127.0.0.1:3306}
              - {name: r1, address: 127.0.0.1:3307, role: replica}
              - {name: r2, address: 127.0.0.1:3308, role: replica}
            routing: {mode: split}
            """, "test.yaml");
    private final Backend primary = backend("p", BackendConfig.Role.PRIMARY);
    private final Backend replica1 = backend("r1", BackendConfig.Role.REPLICA);
    private final Backend replica2 = backend("r2", BackendConfig.Role.REPLICA);
    private final FakeConnector connector = new FakeConnector();
    private final Map<Backend, BackendPool> pools = new LinkedHashMap<>();
    private final AuthWork authWork = new AuthWork(1);
    private final EmbeddedChannel client = new EmbeddedChannel();
    private CommandPhase phase;

    @AfterEach
    void releaseEverything() {
        client.finishAndReleaseAll();
        pools.values().forEach(BackendPool::close);
        client.runPendingTasks();
        connector.channels().forEach(EmbeddedChannel::finishAndReleaseAll);
        authWork.close();
    }

    private void start() {
        for (Backend backend : List.of(primary, replica1, replica2)) {
            pools.put(backend, new BackendPool(backend, connector, 10, Duration.ofSeconds(5)));
        }
        SplitRouter router = new SplitRouter(List.of(primary, replica1, replica2),
                () -> Balancer.of(RoutingConfig.Balancer.ROUND_ROBIN));
        SplitBackends backends = new SplitBackends(router, pools::get, () -> List.of(primary, replica1, replica2),
                new PrimaryStatus(), new AcknowledgedWrites());
        ClientAuth auth = new ClientAuth(() -> config, AuthPlugins.standard(), null, authWork, new FailedLogins(3));
        SessionServices services = new SessionServices(() -> config, new Kills(new LiveSessions(), new KillConnections(),
                connector, () -> config), new Observers(), new ClientConnections(), new ProxyStats(),
                MemoryBudget.unlimited(), new SqlReaders());
        LoginRequest login = new LoginRequest("app", "secret".getBytes(StandardCharsets.UTF_8), 0, 45, null);
        SplitPath path = new SplitPath(backends, auth, config.routing(), TEXT.capabilities(), login, null, new byte[20],
                false);
        phase = new CommandPhase(services, client, 7, path);
        client.pipeline().addLast("frames", new RawPacketDecoder());
        client.pipeline().addLast("session", phase);
    }

    @Test
    void anAutocommitReadGoesToAReplicaAndItsConnectionBackToThePool() {
        start();
        CapturedExchanges.Exchange read = TEXT.all().get(0);
        client.writeInbound(Unpooled.wrappedBuffer(read.request()));
        assertThat(connector.nextBackend()).isSameAs(replica1);
        TrackedConnection connection = connected();
        assertThat(sent(connection)).as("no state to replay: the read alone").isEqualTo(read.request());

        answer(connection, read.response());
        assertThat(toClient()).isEqualTo(read.response());
        assertThat(pools.get(replica1).idleCount()).as("given back after the read").isEqualTo(1);
        assertThat(phase.killable().backendName()).isNull();
    }

    @Test
    void aWriteGoesToThePrimary() {
        start();
        CapturedExchanges.Exchange insert = TEXT.query("INSERT");
        client.writeInbound(Unpooled.wrappedBuffer(insert.request()));
        assertThat(connector.nextBackend()).isSameAs(primary);
        TrackedConnection connection = connected();
        assertThat(sent(connection)).isEqualTo(insert.request());
        answer(connection, insert.response());
        assertThat(toClient()).isEqualTo(insert.response());
    }

    @Test
    void aTemporaryTablePinsTheSessionToItsConnection() {
        start();
        client.writeInbound(Unpooled.wrappedBuffer(command(Commands.COM_QUERY, "CREATE TEMPORARY TABLE tt (i INT)")));
        assertThat(connector.nextBackend()).isSameAs(primary);
        TrackedConnection connection = connected();
        sent(connection);
        answer(connection, ok());
        toClient();
        assertThat(phase.killable().pins()).containsExactly("temporary_table");

        CapturedExchanges.Exchange read = TEXT.all().get(0);
        client.writeInbound(Unpooled.wrappedBuffer(read.request()));
        assertThat(connector.pending()).as("no other connection: the table lives on this one").isZero();
        assertThat(sent(connection)).isEqualTo(read.request());
        answer(connection, read.response());
        assertThat(toClient()).isEqualTo(read.response());
        assertThat(pools.get(primary).idleCount()).as("still held").isZero();
    }

    @Test
    void aSessionVariableIsReplayedWhereTheNextStatementRuns() {
        start();
        client.writeInbound(Unpooled.wrappedBuffer(command(Commands.COM_QUERY, "SET sql_mode = 'ANSI_QUOTES'")));
        assertThat(connector.nextBackend()).as("a plain SET runs anywhere").isSameAs(replica1);
        TrackedConnection onReplica = connected();
        sent(onReplica);
        answer(onReplica, ok(1, ServerStatus.AUTOCOMMIT, variable("sql_mode", "ANSI_QUOTES")));
        toClient();

        CapturedExchanges.Exchange insert = TEXT.query("INSERT");
        client.writeInbound(Unpooled.wrappedBuffer(insert.request()));
        assertThat(connector.nextBackend()).isSameAs(primary);
        TrackedConnection onPrimary = connected();
        String replay = new String(sent(onPrimary), StandardCharsets.UTF_8);
        assertThat(replay).as("the session's sql_mode first").contains("SET SESSION sql_mode = 'ANSI_QUOTES'")
                .doesNotContain("INSERT");
        answer(onPrimary, ok(1, ServerStatus.AUTOCOMMIT, variable("sql_mode", "ANSI_QUOTES")));
        assertThat(sent(onPrimary)).as("then the statement").isEqualTo(insert.request());
        answer(onPrimary, insert.response());
        assertThat(toClient()).isEqualTo(insert.response());
    }

    @Test
    void aReadWhoseReplicaIsLostBeforeAnsweringRunsAgainOnAnother() {
        start();
        CapturedExchanges.Exchange read = TEXT.all().get(0);
        client.writeInbound(Unpooled.wrappedBuffer(read.request()));
        TrackedConnection lost = connected();
        sent(lost);
        lost.channel().close();
        assertThat(connector.nextBackend()).as("elsewhere").isSameAs(replica2);
        TrackedConnection other = connected();
        assertThat(sent(other)).isEqualTo(read.request());
        answer(other, read.response());
        assertThat(toClient()).as("the client sees no error").isEqualTo(read.response());
        assertThat(client.isOpen()).isTrue();
    }

    @Test
    void aConnectionLostInATransactionEndsTheSession() {
        start();
        client.writeInbound(Unpooled.wrappedBuffer(command(Commands.COM_QUERY, "BEGIN")));
        TrackedConnection connection = connected();
        sent(connection);
        answer(connection, ok(1, ServerStatus.AUTOCOMMIT | ServerStatus.IN_TRANS));
        toClient();

        client.writeInbound(Unpooled.wrappedBuffer(TEXT.all().get(0).request()));
        assertThat(connector.pending()).as("the transaction's connection").isZero();
        sent(connection);
        connection.channel().close();
        byte[] err = toClient();
        assertThat(err[4] & 0xFF).isEqualTo(ErrPacket.HEADER);
        ErrPacket packet = ErrPacket.decode(Unpooled.wrappedBuffer(err, 4, err.length - 4), TEXT.capabilities());
        assertThat(packet.errorCode()).isEqualTo(1927);
        assertThat(packet.errorMessage()).startsWith("Lost connection to backend p during the session");
        assertThat(client.isOpen()).isFalse();
    }

    // ---- helpers ----

    private TrackedConnection connected() {
        return connector.completeTracked(TEXT.capabilities(), TRACKING_OK);
    }

    private byte[] toClient() {
        return drain(client);
    }
}
