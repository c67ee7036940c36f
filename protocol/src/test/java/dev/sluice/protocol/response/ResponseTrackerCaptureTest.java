package dev.sluice.protocol.response;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.protocol.Capabilities;
import dev.sluice.protocol.Commands;
import dev.sluice.protocol.response.CaptureReplay.Exchange;
import dev.sluice.protocol.testing.Pcapng;
import dev.sluice.protocol.testing.TcpConnection;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * The tracker against real MariaDB 10.11 and 11.4 traffic (protocol/src/test/resources/captures,
 * described in its README): every response must end exactly where the next one starts, and the
 * outcome must match what the capture notes say the server sent.
 */
class ResponseTrackerCaptureTest {

    private static List<Exchange> replay(String file) {
        return new CaptureReplay(Pcapng.readResource(file).connection(), file.hashCode(), 64).run();
    }

    @ParameterizedTest
    @ValueSource(strings = {"text-resultset.pcapng", "text-resultset-11.4.pcapng"})
    void textResultSets(String file) {
        List<Exchange> exchanges = replay(file);
        assertThat(exchanges).extracting(Exchange::command).containsOnly(Commands.COM_QUERY);
        assertThat(exchanges).hasSize(7);
        Response types = exchanges.get(0).response();
        assertThat(types.kind()).isEqualTo(Response.Kind.RESULT_SET);
        assertThat(types.columns()).isEqualTo(10);
        assertThat(types.rows()).isEqualTo(3);
        Response empty = exchanges.get(1).response();
        assertThat(empty.columns()).isEqualTo(2);
        assertThat(empty.rows()).isZero();
        Response insert = exchanges.get(2).response();
        assertThat(insert.kind()).isEqualTo(Response.Kind.OK);
        assertThat(insert.affectedRows()).isEqualTo(2);
        assertThat(insert.lastInsertId()).isEqualTo(5);
        assertThat(exchanges.get(3).response().warnings()).isEqualTo(1);
        assertThat(exchanges.get(4).response().warnings()).isEqualTo(2);
        Response syntax = exchanges.get(6).response();
        assertThat(syntax.errorCode()).isEqualTo(1064);
        assertThat(syntax.sqlState()).isEqualTo("42000");
    }

    @Test
    void callWithTwoResultSetsAndAFinalOk() {
        List<Exchange> exchanges = replay("multi-results.pcapng");
        assertThat(exchanges).hasSize(3);
        Response call = exchanges.get(2).response();
        assertThat(call.resultSets()).isEqualTo(2);
        assertThat(call.rows()).isEqualTo(3);
        assertThat(call.sessionStateChanged()).isTrue();
        assertThat(call.status() & 0xFFFF).isEqualTo(0x4022);
    }

    @Test
    void multiStatementEndingInAnError() {
        List<Exchange> exchanges = replay("multi-statement.pcapng");
        assertThat(exchanges).hasSize(1);
        Response response = exchanges.get(0).response();
        assertThat(response.kind()).isEqualTo(Response.Kind.ERR);
        assertThat(response.errorCode()).isEqualTo(1054);
        assertThat(response.resultSets()).isEqualTo(4);
        assertThat(exchanges.get(0).serverPackets()).isEqualTo(25);
    }

    @Test
    void loadDataLocalInfile() {
        List<Exchange> exchanges = replay("load-data-local.pcapng");
        Response load = exchanges.get(0).response();
        assertThat(load.localInfile()).isTrue();
        assertThat(load.kind()).isEqualTo(Response.Kind.OK);
        assertThat(load.affectedRows()).isEqualTo(3);
        assertThat(exchanges.get(1).response().rows()).isEqualTo(1);
    }

    @Test
    void seventeenMebibyteRowsBothWays() {
        List<Exchange> exchanges = replay("large-packet.pcapng.gz");
        assertThat(exchanges).extracting(e -> e.response().kind()).containsExactly(
                Response.Kind.OK, Response.Kind.OK, Response.Kind.RESULT_SET, Response.Kind.RESULT_SET);
        Response blob = exchanges.get(3).response();
        assertThat(blob.rows()).isEqualTo(1);
        assertThat(exchanges.get(3).serverPackets()).isEqualTo(6);
    }

    @ParameterizedTest
    @ValueSource(strings = {"prepared-sysbench.pcapng", "prepared-sysbench-11.4.pcapng"})
    void sysbenchPreparedPointSelects(String file) {
        CaptureReplay replay = new CaptureReplay(Pcapng.readResource(file).connection(), 7, 64);
        assertThat(Capabilities.has(replay.capabilities(), Capabilities.MARIADB_CLIENT_CACHE_METADATA)).isTrue();
        List<Exchange> exchanges = replay.run();
        assertThat(exchanges.get(0).command()).isEqualTo(Commands.COM_STMT_PREPARE);
        Response prepare = exchanges.get(0).response();
        assertThat(prepare.params()).isEqualTo(1);
        assertThat(prepare.columns()).isEqualTo(1);
        List<Exchange> executes = exchanges.subList(1, exchanges.size());
        assertThat(executes).hasSize(20);
        assertThat(executes).allSatisfy(e -> {
            assertThat(e.command()).isEqualTo(Commands.COM_STMT_EXECUTE);
            assertThat(e.response().rows()).isEqualTo(1);
            assertThat(e.serverPackets()).as("no column definitions resent").isEqualTo(4);
        });
    }

    @ParameterizedTest
    @ValueSource(strings = {"connectorj.pcapng", "connectorj-11.4.pcapng"})
    void connectorJCursorsChangeUserAndReset(String file) {
        CaptureReplay replay = new CaptureReplay(Pcapng.readResource(file).connection(), 11, 64);
        assertThat(Capabilities.has(replay.capabilities(), Capabilities.CLIENT_DEPRECATE_EOF)).isTrue();
        List<Exchange> exchanges = replay.run();
        assertThat(exchanges).filteredOn(e -> e.command() == Commands.COM_QUERY).hasSize(11);
        assertThat(exchanges).filteredOn(e -> e.command() == Commands.COM_STMT_PREPARE).hasSize(5);
        assertThat(exchanges).filteredOn(e -> e.command() == Commands.COM_STMT_EXECUTE).hasSize(5);
        List<Exchange> fetches = exchanges.stream().filter(e -> e.command() == Commands.COM_STMT_FETCH).toList();
        assertThat(fetches).hasSize(7);
        assertThat(fetches).extracting(e -> e.response().rows()).containsExactly(2L, 2L, 1L, 2L, 0L, 1L, 1L);
        assertThat(exchanges).filteredOn(e -> e.command() == Commands.COM_STMT_EXECUTE)
                .filteredOn(e -> e.response().cursorExists()).as("all but the INSERT open a cursor").hasSize(4);
        Exchange changeUser = exchanges.stream().filter(e -> e.command() == Commands.COM_CHANGE_USER).findFirst().orElseThrow();
        assertThat(changeUser.response().kind()).isEqualTo(Response.Kind.OK);
        assertThat(changeUser.serverPackets()).as("auth switch, then OK").isEqualTo(2);
        assertThat(exchanges).filteredOn(e -> e.command() == Commands.COM_RESET_CONNECTION)
                .singleElement().extracting(e -> e.response().kind()).isEqualTo(Response.Kind.OK);
    }

    @Test
    void mysqlslapConnections() {
        List<TcpConnection> connections = Pcapng.readResource("mysqlslap.pcapng").connections();
        assertThat(connections).hasSize(3);
        long queries = 0;
        for (TcpConnection connection : connections) {
            List<Exchange> exchanges = new CaptureReplay(connection, 3, 64).run();
            assertThat(exchanges).allSatisfy(e -> assertThat(e.response().isError()).isFalse());
            queries += exchanges.stream().filter(e -> e.command() == Commands.COM_QUERY).count();
        }
        assertThat(queries).isEqualTo(123);
    }

    @ParameterizedTest
    @ValueSource(strings = {"handshake-native.pcapng", "handshake-native-11.4.pcapng", "handshake-ed25519.pcapng"})
    void loginsEndInOk(String file) {
        List<Exchange> exchanges = replay(file);
        assertThat(exchanges).extracting(Exchange::command).containsExactly(Commands.COM_QUERY);
        assertThat(exchanges.get(0).response().rows()).isEqualTo(1);
    }

    @Test
    void wrongPasswordEndsTheLoginWith1045() {
        Response login = new CaptureReplay(Pcapng.readResource("auth-fail.pcapng").connection(), 1, 64).login();
        assertThat(login.errorCode()).isEqualTo(1045);
        assertThat(login.sqlState()).isEqualTo("28000");
        assertThat(login.errorMessage()).startsWith("Access denied for user 'app'@'localhost'");
    }
}
