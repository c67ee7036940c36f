package dev.sluice.proxy.session;

import static dev.sluice.proxy.testing.ServerPackets.command;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.BackendConfig;
import dev.sluice.protocol.Capabilities;
import dev.sluice.protocol.Commands;
import dev.sluice.protocol.packet.ErrPacket;
import dev.sluice.proxy.backend.Backend;
import dev.sluice.proxy.backend.BackendIdentity;
import dev.sluice.proxy.backend.BackendPool;
import dev.sluice.proxy.backend.LoginRequest;
import dev.sluice.proxy.backend.RelayedConnection;
import dev.sluice.proxy.testing.CapturedExchanges;
import dev.sluice.proxy.testing.ServerPackets;
import dev.sluice.proxy.testing.Written;
import dev.sluice.proxy.testing.CapturedExchanges.Exchange;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Session mode's command phase, driven with bytes: the client's commands and the server's
 * responses from captures of real MariaDB sessions, the session's one backend connection on an
 * {@link EmbeddedChannel}. Commands go to the backend as they came, responses to the client as
 * the server sent them; what the proxy answers itself (refused commands, KILL, an account it does
 * not have) waits for the responses before it; size checks, idle and shutdown end the session.
 */
class SessionModeTest {

    private static final CapturedExchanges TEXT = CapturedExchanges.of("text-resultset.pcapng");
    private static final CapturedExchanges CONNECTOR_J = CapturedExchanges.of("connectorj.pcapng");
    private static final String CONFIG = """
            users: [{name: app, password: secret}]
            backends: [{name: db, address: 127.0.0.1:3306}]
            limits: {max_packet_size: 1K}
            timeouts: {client_idle: 1h}
            """;

    private final SessionHarness session = new SessionHarness(CONFIG);
    private final Backend backend = SessionHarness.backend("db", BackendConfig.Role.PRIMARY);
    private final BackendPool pool = new BackendPool(backend,
            (b, request, loop) -> loop.newFailedFuture(new IllegalStateException("no connects")), 10, Duration.ofSeconds(1));
    private final EmbeddedChannel server = session.backendChannel();
    private RelayedConnection connection;

    @AfterEach
    void releaseEverything() {
        session.client.finishAndReleaseAll();
        server.finishAndReleaseAll();
    }

    /** With the proxy's own accounts and ids: greeted as thread 7, logged in as app. */
    private CommandPhase pooled(CapturedExchanges capture) {
        connection = new RelayedConnection(server, backend, new BackendIdentity("app", capture.capabilities(), 45),
                "capdb");
        server.pipeline().addLast(connection);
        LoginRequest login = new LoginRequest("app", "secret".getBytes(StandardCharsets.UTF_8), 0, 45, "capdb");
        return session.start(7, RelayPath.pooled(connection, pool, login));
    }

    /** Pass-through: the client logged the connection in itself; its thread ids are the server's. */
    private CommandPhase passThrough(CapturedExchanges capture) {
        connection = new RelayedConnection(server, backend, new BackendIdentity(null, capture.capabilities(), 45),
                "capdb");
        server.pipeline().addLast(connection);
        return session.start(-1, RelayPath.passThrough(connection, "cj"));
    }

    @Test
    void aCapturedSessionGoesThroughByteForByte() {
        pooled(TEXT);
        for (Exchange exchange : TEXT.all()) {
            session.send(exchange.request());
            if (exchange.command() == Commands.COM_QUIT) {
                assertThat(session.client.isOpen()).as("QUIT ends the session").isFalse();
                break;
            }
            assertThat(Written.drain(server)).as(Commands.name(exchange.command())).isEqualTo(exchange.request());
            server.writeInbound(Unpooled.wrappedBuffer(exchange.response()));
            assertThat(session.toClient()).as("the response to %s", exchange.sql()).isEqualTo(exchange.response());
        }
        assertThat(Written.drain(server)).as("the connection is reset for the pool's next session,"
                + " its schema selected again: the capture has a DROP").isEqualTo(RESET_AND_SELECT_SCHEMA);
    }

    /** COM_RESET_CONNECTION and the handshake's character set (45) set again: one write. */
    private static final byte[] RESET_FOR_NEXT_SESSION = concat(new byte[] {1, 0, 0, 0, Commands.COM_RESET_CONNECTION},
            command(Commands.COM_QUERY, "SET character_set_client = 45, character_set_results = 45,"
                    + " collation_connection = 45"));
    /** The same, the login's schema selected again: for a session that may have changed it. */
    private static final byte[] RESET_AND_SELECT_SCHEMA = concat(RESET_FOR_NEXT_SESSION,
            command(Commands.COM_INIT_DB, "capdb"));

    private void useMysql() {
        session.send(command(Commands.COM_QUERY, "use `mysql`"));
        Written.drain(server);
        server.writeInbound(Unpooled.wrappedBuffer(ServerPackets.ok()));
        session.toClient();
    }

    @Test
    void aSessionThatSelectedAnotherSchemaLeavesTheConnectionOnItsOwnAgain() {
        pooled(TEXT);
        useMysql();
        session.send(command(Commands.COM_QUIT, ""));
        assertThat(Written.drain(server)).isEqualTo(RESET_AND_SELECT_SCHEMA);
        server.writeInbound(Unpooled.wrappedBuffer(concat(ServerPackets.ok(),
                ServerPackets.afterResetAnswers(TEXT.capabilities()), ServerPackets.ok())));
        assertThat(pool.idleCount()).isEqualTo(1);
        assertThat(connection.schema()).isEqualTo("capdb");
        assertThat(connection.isUsable()).isTrue();
    }

    @Test
    void aConnectionWithoutSchemaWhoseSessionSelectedOneCloses() {
        connection = new RelayedConnection(server, backend, new BackendIdentity("app", TEXT.capabilities(), 45), null);
        server.pipeline().addLast(connection);
        session.start(7, RelayPath.pooled(connection, pool,
                new LoginRequest("app", "secret".getBytes(StandardCharsets.UTF_8), 0, 45, null)));
        useMysql();
        session.send(command(Commands.COM_QUIT, ""));
        assertThat(Written.drain(server)).as("a schema cannot be unselected: no reset, goodbye")
                .containsExactly(1, 0, 0, 0, Commands.COM_QUIT);
        assertThat(pool.idleCount()).isZero();
    }

    @Test
    void aSchemaThatCannotBeSelectedAgainClosesTheConnection() {
        pooled(TEXT);
        useMysql();
        session.send(command(Commands.COM_QUIT, ""));
        Written.drain(server);
        byte[] unknownDatabase = ServerPackets.frame(1, concat(new byte[] {(byte) 0xff, 0x19, 0x04, '#'},
                "42000Unknown database 'capdb'".getBytes(StandardCharsets.US_ASCII)));
        server.writeInbound(Unpooled.wrappedBuffer(concat(ServerPackets.ok(),
                ServerPackets.afterResetAnswers(TEXT.capabilities()), unknownDatabase)));
        assertThat(pool.idleCount()).isZero();
        assertThat(connection.isUsable()).isFalse();
    }

    @Test
    void withoutUseOrDropTheSchemaIsNotSelectedAgain() {
        pooled(TEXT);
        session.send(command(Commands.COM_QUIT, ""));
        assertThat(Written.drain(server)).isEqualTo(RESET_FOR_NEXT_SESSION);
        server.writeInbound(Unpooled.wrappedBuffer(concat(ServerPackets.ok(),
                ServerPackets.afterResetAnswers(TEXT.capabilities()))));
        assertThat(pool.idleCount()).isEqualTo(1);
        assertThat(connection.schema()).as("as the login left it").isEqualTo("capdb");
    }

    @Test
    void aHandshakeCollationTheServerDoesNotKnowStillLetsTheConnectionBeParked() {
        pooled(TEXT);
        session.send(command(Commands.COM_QUIT, ""));
        assertThat(Written.drain(server)).isEqualTo(RESET_FOR_NEXT_SESSION);
        // The login fell back to the server's globals then, as the reset does now.
        byte[] unknownCharset = ServerPackets.frame(1, concat(new byte[] {(byte) 0xff, 0x5b, 0x04, '#'},
                "42000Unknown character set: '45'".getBytes(StandardCharsets.US_ASCII)));
        byte[] afterSet = ServerPackets.afterResetAnswers(TEXT.capabilities());
        server.writeInbound(Unpooled.wrappedBuffer(concat(ServerPackets.ok(), unknownCharset,
                Arrays.copyOfRange(afterSet, ServerPackets.ok().length, afterSet.length))));
        assertThat(pool.idleCount()).isEqualTo(1);
        assertThat(connection.isUsable()).isTrue();
    }

    @Test
    void aConnectionWhoseResetFailedIsClosedNotParked() {
        pooled(TEXT);
        byte[] refused = ServerPackets.frame(1, concat(new byte[] {(byte) 0xff, 0x1f, 0x04, '#'},
                "HY000Unknown command".getBytes(StandardCharsets.US_ASCII)));
        session.send(command(Commands.COM_QUIT, ""));
        Written.drain(server);
        server.writeInbound(Unpooled.wrappedBuffer(concat(refused, ServerPackets.afterResetAnswers(TEXT.capabilities()))));
        assertThat(pool.idleCount()).isZero();
        assertThat(connection.isUsable()).isFalse();
    }

    @Test
    void preparedStatementsCursorsResetAndChangeUserGoThroughInPassThrough() {
        passThrough(CONNECTOR_J);
        for (Exchange exchange : CONNECTOR_J.all()) {
            session.send(exchange.request());
            if (exchange.command() == Commands.COM_QUIT) {
                break;
            }
            assertThat(Written.drain(server)).as(Commands.name(exchange.command())).isEqualTo(exchange.request());
            for (int part = 0; part < exchange.responseParts().size(); part++) {
                if (part > 0) {
                    // The client's answer within the response (here the auth switch of COM_CHANGE_USER).
                    byte[] data = exchange.clientData().get(part - 1);
                    session.send(data);
                    assertThat(Written.drain(server)).isEqualTo(data);
                }
                server.writeInbound(Unpooled.wrappedBuffer(exchange.responseParts().get(part)));
                assertThat(session.toClient()).as(Commands.name(exchange.command()))
                        .isEqualTo(exchange.responseParts().get(part));
            }
        }
        assertThat(session.client.isOpen()).isFalse();
        assertThat(Written.drain(server)).as("a pass-through connection says goodbye itself")
                .containsExactly(1, 0, 0, 0, Commands.COM_QUIT);
    }

    @Test
    void pipelinedCommandsGoOutBeforeTheirAnswersAndTheAnswersComeBackInOrder() {
        pooled(TEXT);
        Exchange first = TEXT.all().get(0);
        Exchange second = TEXT.all().get(1);
        session.send(concat(first.request(), second.request()));
        assertThat(Written.drain(server)).isEqualTo(concat(first.request(), second.request()));
        server.writeInbound(Unpooled.wrappedBuffer(concat(first.response(), second.response())));
        assertThat(session.toClient()).isEqualTo(concat(first.response(), second.response()));
    }

    @Test
    void aRefusedCommandIsAnsweredAfterTheResponsesBeforeItAndHoldsTheOnesAfter() {
        pooled(TEXT);
        Exchange query = TEXT.all().get(0);
        Exchange next = TEXT.all().get(1);
        session.send(concat(query.request(), command(Commands.COM_BINLOG_DUMP, "xxxx"), next.request()));
        assertThat(Written.drain(server)).as("the command after the refused one waits").isEqualTo(query.request());
        assertThat(session.toClient()).isEmpty();

        server.writeInbound(Unpooled.wrappedBuffer(query.response()));
        byte[] answers = session.toClient();
        assertThat(Arrays.copyOf(answers, query.response().length)).isEqualTo(query.response());
        ErrPacket refusal = err(Arrays.copyOfRange(answers, query.response().length, answers.length));
        assertThat(refusal.errorCode()).isEqualTo(1047);
        assertThat(refusal.errorMessage()).contains("does not relay COM_BINLOG_DUMP");
        assertThat(Written.drain(server)).as("then the held command goes").isEqualTo(next.request());
        assertThat(session.client.isOpen()).isTrue();
    }

    @Test
    void anEmptyPacketEndsTheSession() {
        pooled(TEXT);
        session.send(new byte[] {0, 0, 0, 0});
        ErrPacket err = err(session.toClient());
        assertThat(err.errorCode()).isEqualTo(1047);
        assertThat(err.errorMessage()).isEqualTo("Malformed packet: empty command");
        assertThat(session.client.isOpen()).isFalse();
    }

    @Test
    void aCommandOverMaxPacketSizeEndsTheSessionAndItsConnectionIsNotReused() {
        pooled(TEXT);
        session.send(command(Commands.COM_QUERY, "SELECT '" + "x".repeat(1100) + "'"));
        ErrPacket err = err(session.toClient());
        assertThat(err.errorCode()).isEqualTo(1153);
        assertThat(err.errorMessage()).contains("(1024)");
        assertThat(session.client.isOpen()).isFalse();
        assertThat(Written.drain(server)).as("nothing of the command; a connection a command may have"
                + " partly reached is closed, not pooled").containsExactly(1, 0, 0, 0, Commands.COM_QUIT);
    }

    @Test
    void aKillOfAnUnknownThreadIsAnsweredByTheProxy() {
        pooled(TEXT);
        session.send(command(Commands.COM_QUERY, "KILL QUERY 99"));
        ErrPacket err = err(session.toClient());
        assertThat(err.errorCode()).isEqualTo(1094);
        assertThat(err.errorMessage()).isEqualTo("Unknown thread id: 99");
        assertThat(Written.drain(server)).as("never passed raw to a backend").isEmpty();
    }

    @Test
    void aKillOfItsOwnThreadIdEndsItsQuery() {
        pooled(TEXT);
        session.send(command(Commands.COM_QUERY, "KILL QUERY 7"));
        ErrPacket err = err(session.toClient());
        assertThat(err.errorCode()).isEqualTo(1317);
        assertThat(session.client.isOpen()).isTrue();
    }

    @Test
    void connectionIdAnswersTheProxysOwnId() {
        pooled(TEXT);
        session.send(command(Commands.COM_QUERY, "SELECT CONNECTION_ID()"));
        String sent = new String(Written.drain(server), StandardCharsets.UTF_8);
        assertThat(sent).contains("CAST(7 AS UNSIGNED)").doesNotContain("SELECT CONNECTION_ID()");
    }

    @Test
    void anIdleTimeoutEndsOnlyASessionWithNothingOut() {
        session.client.freezeTime();
        pooled(TEXT);
        Exchange query = TEXT.all().get(0);
        session.client.advanceTimeBy(30, TimeUnit.MINUTES);
        session.send(query.request());
        session.client.advanceTimeBy(31, TimeUnit.MINUTES);
        session.client.runScheduledPendingTasks();
        assertThat(session.client.isOpen()).as("the client sent a statement 31 minutes ago").isTrue();

        session.client.advanceTimeBy(2, TimeUnit.HOURS);
        session.client.runScheduledPendingTasks();
        assertThat(session.client.isOpen()).as("its statement is still out").isTrue();

        server.writeInbound(Unpooled.wrappedBuffer(query.response()));
        assertThat(session.toClient()).isEqualTo(query.response());
        session.client.advanceTimeBy(1, TimeUnit.HOURS);
        session.client.runScheduledPendingTasks();
        ErrPacket err = err(session.toClient());
        assertThat(err.errorCode()).isEqualTo(4031);
        assertThat(err.errorMessage()).contains("inactivity (client_idle: PT1H)");
        assertThat(session.client.isOpen()).isFalse();
    }

    @Test
    void aBackendLostBeforeTheResponseBeganIsReportedAsThatStatementsError() {
        pooled(TEXT);
        session.send(TEXT.all().get(0).request());
        Written.drain(server);
        server.close();
        ErrPacket err = err(session.toClient());
        assertThat(err.errorCode()).isEqualTo(1927);
        assertThat(err.errorMessage()).startsWith("Lost connection to backend db during query");
        assertThat(session.client.isOpen()).isFalse();
        assertThat(backend.activeSessions().get()).isZero();
    }

    @Test
    void aChangeOfUserToAnAccountTheProxyDoesNotHaveIsRefusedThere() {
        pooled(TEXT);
        // COM_CHANGE_USER, then the user name, NUL-terminated (the rest does not matter here).
        session.send(command(Commands.COM_CHANGE_USER, "nobody\0"));
        ErrPacket err = err(session.toClient());
        assertThat(err.errorCode()).isEqualTo(1045);
        assertThat(err.errorMessage()).startsWith("Access denied for user 'nobody'@");
        assertThat(Written.drain(server)).isEmpty();
    }

    @Test
    void atShutdownAnIdleSessionEndsAtOnceAndABusyOneAfterItsResponse() {
        pooled(TEXT);
        Exchange query = TEXT.all().get(0);
        session.send(query.request());
        session.clients.shuttingDown(true);
        session.client.pipeline().fireUserEventTriggered(ShutdownEvent.INSTANCE);
        assertThat(session.client.isOpen()).as("its statement is out").isTrue();

        server.writeInbound(Unpooled.wrappedBuffer(query.response()));
        assertThat(session.toClient()).isEqualTo(query.response());
        session.client.runPendingTasks();
        assertThat(session.client.isOpen()).as("closed once its response is out").isFalse();
    }

    private static ErrPacket err(byte[] frame) {
        assertThat(frame.length).as("an ERR packet").isGreaterThan(4);
        assertThat(frame[4] & 0xFF).as("an ERR packet").isEqualTo(ErrPacket.HEADER);
        return ErrPacket.decode(Unpooled.wrappedBuffer(frame, 4, frame.length - 4), 0x200);
    }

    private static byte[] concat(byte[]... parts) {
        int length = 0;
        for (byte[] part : parts) {
            length += part.length;
        }
        byte[] joined = new byte[length];
        int at = 0;
        for (byte[] part : parts) {
            System.arraycopy(part, 0, joined, at, part.length);
            at += part.length;
        }
        return joined;
    }
}
