package dev.sluice.protocol.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.protocol.ProtocolException;
import dev.sluice.protocol.packet.AuthMoreData;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class MysqlNativePasswordTest {

    private static final HexFormat HEX = HexFormat.of();
    private static final MysqlNativePassword PLUGIN = new MysqlNativePassword();

    /**
     * Published vectors: password, seed, scramble (all but the password in hex).
     * <ul>
     * <li>eclipse-vertx/vertx-sql-client, vertx-mysql-client/src/test/java/io/vertx/mysqlclient/impl/util/Native41AuthenticatorTest.java
     *     (testEncode, testEncode2; the seeds there are Java byte literals, written here in hex)</li>
     * <li>go-sql-driver/mysql, auth_test.go, TestAuthFastNativePassword (authData and expectedAuthResp as decimal bytes there)</li>
     * <li>xp-framework/rdbms, src/test/php/rdbms/unittest/mysql/MySqlPasswordTest.class.php, protocol41
     *     (expected scramble as a PHP octal-escaped string there)</li>
     * <li>real MariaDB logins in /work/shared/captures (also protocol/src/test/resources/captures), read with
     *     {@code tshark -T fields -e tcp.payload}: the seed is the greeting's two auth-plugin-data parts, the scramble
     *     the HandshakeResponse41's auth response; handshake-native.pcapng (MariaDB 10.11.19, frames 4 and 6) and
     *     handshake-native-11.4.pcapng (MariaDB 11.4.5, frames 4 and 6), user app, password app, both answered with OK;
     *     auth-fail.pcapng (frames 4 and 6) is the {@code -pwrong} login the server refused with ERR 1045.</li>
     * </ul>
     */
    @ParameterizedTest(name = "{3}")
    @CsvSource({
        "password, 1838557e3a776535341f444a36605d795c096c08, f2671df1862aed0340be809405b30bb93d29142d, vertx testEncode",
        "password, 420f34686f77671814573d0439701f4658514931, cc93fb6f68af2e9446dafc0a1667d015b0a49550, vertx testEncode2",
        "secret, 46725c5e01260b743f7217657e671a5f51111815, 35b18c9ffbbd7f356dfcac32d3c0f0a41a30cf2d, go-sql-driver TestAuthFastNativePassword",
        "hello, 3132333435363738393031323334353637383930, 7d50516e0e730b0b1b12fbaa1ba0876f3db2c4dd, xp-framework protocol41",
        "app, 6972214a3154354c5c6b28226e27712b7d57797b, 5c600cbcf8eb867d6b9195789f5642d310cf6ab6, MariaDB 10.11 handshake-native.pcapng",
        "app, 3975667b5a31245f33224c39776f47534d673e41, f41627da98c7f31db2f3b50d3fe9b54335b90bdb, MariaDB 11.4 handshake-native-11.4.pcapng",
        "wrong, 4e3459417b68753440263c3b536f56407d755529, 7fcf9c7559a825102dfa132577c79b795286b17a, MariaDB 10.11 auth-fail.pcapng",
    })
    void scrambleMatchesPublishedVectors(String password, String seed, String scramble, String source) {
        byte[] seedBytes = HEX.parseHex(seed);
        assertThat(HEX.formatHex(MysqlNativePassword.scramble(bytes(password), seedBytes))).isEqualTo(scramble);

        ClientAuth client = PLUGIN.startClient(bytes(password), seedBytes, ClientAuthOptions.plaintext(false));
        assertThat(HEX.formatHex(client.firstResponse())).isEqualTo(scramble);
    }

    @Test
    void clientAcceptsGreetingAuthDataWithTrailingNul() {
        // The greeting carries 20 bytes of seed and a NUL (handshake-native.pcapng, auth-plugin-data-part-2 is 13 bytes).
        byte[] pluginData = HEX.parseHex("6972214a3154354c5c6b28226e27712b7d57797b00");
        ClientAuth client = PLUGIN.startClient(bytes("app"), pluginData, ClientAuthOptions.plaintext(false));
        assertThat(HEX.formatHex(client.firstResponse())).isEqualTo("5c600cbcf8eb867d6b9195789f5642d310cf6ab6");
    }

    @Test
    void emptyPasswordSendsEmptyResponse() {
        ClientAuth client = PLUGIN.startClient(new byte[0], AuthSeed.generate(), ClientAuthOptions.plaintext(false));
        assertThat(client.firstResponse()).isEmpty();
    }

    @Test
    void clientRejectsAuthMoreDataAndBadSeeds() {
        ClientAuth client = PLUGIN.startClient(bytes("app"), AuthSeed.generate(), ClientAuthOptions.plaintext(false));
        assertThatThrownBy(() -> client.onMoreData(new AuthMoreData(new byte[] {3})))
                .isInstanceOf(ProtocolException.class)
                .hasMessage("mysql_native_password: AuthMoreData with 1 bytes of data (expected: OK or ERR after the scramble)"
                        + " in phase AUTH");
        assertThatThrownBy(() -> PLUGIN.startClient(bytes("app"), new byte[19], ClientAuthOptions.plaintext(false)))
                .isInstanceOf(ProtocolException.class)
                .hasMessage("auth-plugin-data: 19 bytes (expected: 20, or 21 ending in NUL) in phase AUTH");
    }

    @Test
    void serverAcceptsTheRealClientsScramble() {
        // The MariaDB CLI's response from handshake-native.pcapng, checked as the server that captured it did.
        ServerAuth server = PLUGIN.startServer(login("app", HEX.parseHex("6972214a3154354c5c6b28226e27712b7d57797b")));
        ServerStep step = server.onClientData(HEX.parseHex("5c600cbcf8eb867d6b9195789f5642d310cf6ab6"));
        assertThat(step).isInstanceOfSatisfying(ServerStep.Accept.class, accept -> assertThat(accept.sendBeforeOk()).isEmpty());
    }

    @Test
    void serverRejectsWrongPasswordWithMariaDbsOwnText() {
        // auth-fail.pcapng frame 8: ERR 1045, SQL state 28000, this exact message.
        ServerAuth server = PLUGIN.startServer(login("app", HEX.parseHex("4e3459417b68753440263c3b536f56407d755529")));
        ServerStep step = server.onClientData(HEX.parseHex("7fcf9c7559a825102dfa132577c79b795286b17a"));
        assertThat(step).isEqualTo(new ServerStep.Reject(1045, "28000",
                "Access denied for user 'app'@'localhost' (using password: YES)"));
    }

    @Test
    void serverRejectsUnknownUserLikeWrongPassword() {
        byte[] seed = AuthSeed.generate();
        ServerLogin unknown = new ServerLogin("ghost", "localhost", (byte[]) null, seed, false, TestKeys.KEYS, false);
        ServerStep step = PLUGIN.startServer(unknown).onClientData(MysqlNativePassword.scramble(bytes("app"), seed));
        assertThat(step).isEqualTo(ServerStep.Reject.accessDenied("ghost", "localhost", true));
    }

    @Test
    void serverHandlesEmptyResponses() {
        byte[] seed = AuthSeed.generate();
        ServerLogin noPassword = new ServerLogin("anon", "h", new byte[0], seed, false, TestKeys.KEYS, false);
        assertThat(PLUGIN.startServer(noPassword).onClientData(new byte[0])).isInstanceOf(ServerStep.Accept.class);
        assertThat(PLUGIN.startServer(noPassword).onClientData(new byte[] {0})).isInstanceOf(ServerStep.Accept.class);
        assertThat(PLUGIN.startServer(noPassword).onClientData(MysqlNativePassword.scramble(bytes("x"), seed)))
                .isEqualTo(ServerStep.Reject.accessDenied("anon", "h", true));

        ServerLogin withPassword = new ServerLogin("app", "h", bytes("app"), seed, false, TestKeys.KEYS, false);
        assertThat(PLUGIN.startServer(withPassword).onClientData(new byte[0]))
                .isEqualTo(ServerStep.Reject.accessDenied("app", "h", false));
        ServerLogin unknown = new ServerLogin("ghost", "h", (byte[]) null, seed, false, TestKeys.KEYS, false);
        assertThat(PLUGIN.startServer(unknown).onClientData(new byte[0]))
                .isEqualTo(ServerStep.Reject.accessDenied("ghost", "h", false));
    }

    @Test
    void serverRejectsResponsesOfTheWrongLengthAndPacketsAfterTheEnd() {
        ServerAuth server = PLUGIN.startServer(login("app", AuthSeed.generate()));
        assertThat(server.onClientData(new byte[19])).isEqualTo(ServerStep.Reject.accessDenied("app", "localhost", true));
        assertThatThrownBy(() -> server.onClientData(new byte[20]))
                .isInstanceOf(ProtocolException.class)
                .hasMessage("mysql_native_password: client packet of 20 bytes after the exchange ended in phase AUTH");
    }

    private static ServerLogin login(String password, byte[] seed) {
        return new ServerLogin("app", "localhost", bytes(password), seed, false, TestKeys.KEYS, false);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
