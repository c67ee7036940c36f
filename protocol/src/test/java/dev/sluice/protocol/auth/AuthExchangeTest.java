package dev.sluice.protocol.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.protocol.ProtocolException;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The client side against the server side, in process, through every path of both plugins. */
class AuthExchangeTest {

    private static final AuthPlugins PLUGINS = AuthPlugins.standard();
    private static final String NATIVE = MysqlNativePassword.NAME;
    private static final String SHA2 = CachingSha2Password.NAME;
    private static final String FAST_AUTH_SUCCESS = "S: 0103";
    private static final String PERFORM_FULL_AUTH = "S: 0104";
    private static final String OK = "S: 00000002000000";

    private final byte[] seed = AuthSeed.generate();

    @Test
    void cachingSha2FastAuth() {
        InProcessLogin.Transcript t = login("app", SHA2, SHA2, ClientAuthOptions.plaintext(false), serverLogin("app", false, false));
        assertThat(t.clientEnd()).isInstanceOf(ClientStep.Authenticated.class);
        assertThat(t.packets()).hasSize(3).containsSubsequence(FAST_AUTH_SUCCESS, OK);
        assertThat(t.packets().get(0)).isEqualTo("C: " + hex(CachingSha2Password.scramble(bytes("app"), seed)));
    }

    @Test
    void cachingSha2FullAuthOverTls() {
        InProcessLogin.Transcript t = login("app", SHA2, SHA2, ClientAuthOptions.tls(), serverLogin("app", true, true));
        assertThat(t.clientEnd()).isInstanceOf(ClientStep.Authenticated.class);
        assertThat(t.packets()).containsExactly(t.packets().get(0), PERFORM_FULL_AUTH, "C: " + hex(bytes("app\0")), OK);
    }

    @Test
    void cachingSha2FullAuthWithPublicKeyRequest() {
        InProcessLogin.Transcript t = login("app", SHA2, SHA2, ClientAuthOptions.plaintext(true), serverLogin("app", false, true));
        assertThat(t.clientEnd()).isInstanceOf(ClientStep.Authenticated.class);
        byte[] pem = TestKeys.PAIR.publicKeyPem().getBytes(StandardCharsets.US_ASCII);
        assertThat(t.packets()).hasSize(6).containsSubsequence(PERFORM_FULL_AUTH, "C: 02", "S: 01" + hex(pem), OK);
        assertThat(t.packets().get(4)).hasSize("C: ".length() + 512);
    }

    @Test
    void onlyTheStepThatDecryptsIsCostly() {
        byte[] scramble = CachingSha2Password.scramble(bytes("app"), seed);
        byte[] encrypted = RsaPasswordCipher.encrypt(bytes("app"), seed, TestKeys.PAIR.publicKey());
        byte[] requestKey = {CachingSha2Password.REQUEST_PUBLIC_KEY};

        ServerAuthExchange plain = new ServerAuthExchange(PLUGINS, serverLogin("app", false, true), SHA2);
        assertThat(plain.costly(scramble)).as("before the plugin started").isFalse();
        assertThat(plain.start(SHA2, scramble)).isInstanceOf(ServerStep.Reply.class);
        assertThat(plain.costly(requestKey)).as("asking for the key").isFalse();
        assertThat(plain.costly(encrypted)).as("the password encrypted with a key the client had").isTrue();
        assertThat(plain.onClientData(requestKey)).isInstanceOf(ServerStep.Reply.class);
        assertThat(plain.costly(encrypted)).as("the password encrypted with the key just sent").isTrue();
        assertThat(plain.onClientData(encrypted)).isInstanceOf(ServerStep.Accept.class);
        assertThat(plain.costly(encrypted)).as("after the login ended").isFalse();

        ServerAuthExchange overTls = new ServerAuthExchange(PLUGINS, serverLogin("app", true, true), SHA2);
        overTls.start(SHA2, scramble);
        assertThat(overTls.costly(bytes("app\0"))).as("cleartext over TLS").isFalse();
        ServerAuthExchange nativeLogin = new ServerAuthExchange(PLUGINS, serverLogin("app", false, false), NATIVE);
        assertThat(nativeLogin.costly(new byte[256])).isFalse();
    }

    @Test
    void askingForAKeyNotMadeYetIsCostlyAndMakesIt() {
        RsaKeys notMade = RsaKeys.generatedOnFirstUse();
        byte[] requestKey = {CachingSha2Password.REQUEST_PUBLIC_KEY};
        ServerAuthExchange plain = new ServerAuthExchange(PLUGINS,
                new ServerLogin("app", "127.0.0.1", bytes("app"), seed, false, notMade, true), SHA2);
        plain.start(SHA2, CachingSha2Password.scramble(bytes("app"), seed));

        assertThat(plain.costly(requestKey)).as("the first request makes the pair").isTrue();
        assertThat(notMade.ready()).as("asking whether it is costly makes nothing").isFalse();
        ServerStep.Reply reply = (ServerStep.Reply) plain.onClientData(requestKey);

        assertThat(notMade.ready()).isTrue();
        String pem = new String(reply.payload(), 1, reply.payload().length - 1, StandardCharsets.US_ASCII);
        assertThat(pem).isEqualTo(notMade.pair().publicKeyPem());
        byte[] encrypted = RsaPasswordCipher.encrypt(bytes("app"), seed, notMade.pair().publicKey());
        assertThat(plain.onClientData(encrypted)).isInstanceOf(ServerStep.Accept.class);
    }

    @Test
    void cachingSha2FullAuthWithConfiguredPublicKey() {
        InProcessLogin.Transcript t = login("app", SHA2, SHA2, ClientAuthOptions.plaintext(TestKeys.PAIR.publicKey()),
                serverLogin("app", false, true));
        assertThat(t.clientEnd()).isInstanceOf(ClientStep.Authenticated.class);
        assertThat(t.packets()).hasSize(4).containsSubsequence(PERFORM_FULL_AUTH, OK).doesNotContain("C: 02");
    }

    @Test
    void cachingSha2WrongPasswordGetsFullAuthThenAccessDenied() {
        InProcessLogin.Transcript t = login("wrong", SHA2, SHA2, ClientAuthOptions.plaintext(true), serverLogin("app", false, false));
        assertThat(t.clientEnd()).isEqualTo(new ClientStep.Rejected(1045, "28000",
                "Access denied for user 'app'@'127.0.0.1' (using password: YES)"));
        assertThat(t.serverEnd()).isEqualTo(ServerStep.Reject.accessDenied("app", "127.0.0.1", true));
        assertThat(t.packets()).containsSubsequence(PERFORM_FULL_AUTH, "C: 02");
    }

    @Test
    void unknownUserGoesThroughTheSameExchangeAsAWrongPassword() {
        ServerLogin ghost = new ServerLogin("ghost", "127.0.0.1", (byte[]) null, seed, false, TestKeys.KEYS, false);
        InProcessLogin.Transcript unknown = login("app", SHA2, SHA2, ClientAuthOptions.plaintext(true), ghost);
        InProcessLogin.Transcript wrong = login("wrong", SHA2, SHA2, ClientAuthOptions.plaintext(true), serverLogin("app", false, false));
        assertThat(unknown.clientEnd()).isEqualTo(new ClientStep.Rejected(1045, "28000",
                "Access denied for user 'ghost'@'127.0.0.1' (using password: YES)"));
        assertThat(unknown.clientPackets()).isEqualTo(wrong.clientPackets()).isEqualTo(3);
        assertThat(unknown.packets()).hasSameSizeAs(wrong.packets());
        for (int i = 1; i < unknown.packets().size() - 1; i++) {
            if (unknown.packets().get(i).startsWith("S:")) {
                assertThat(unknown.packets().get(i)).isEqualTo(wrong.packets().get(i));
            }
        }
    }

    @Test
    void cachingSha2EmptyPassword() {
        InProcessLogin.Transcript ok = login("", SHA2, SHA2, ClientAuthOptions.plaintext(false), serverLogin("", false, false));
        assertThat(ok.packets()).containsExactly("C: ", OK);
        InProcessLogin.Transcript denied = login("", SHA2, SHA2, ClientAuthOptions.plaintext(false), serverLogin("app", false, false));
        assertThat(denied.clientEnd()).isEqualTo(new ClientStep.Rejected(1045, "28000",
                "Access denied for user 'app'@'127.0.0.1' (using password: NO)"));
    }

    @Test
    void nativeLoginAndWrongPassword() {
        InProcessLogin.Transcript ok = login("app", NATIVE, NATIVE, ClientAuthOptions.plaintext(false), serverLogin("app", false, false));
        assertThat(ok.packets()).containsExactly("C: " + hex(MysqlNativePassword.scramble(bytes("app"), seed)), OK);
        InProcessLogin.Transcript denied = login("nope", NATIVE, NATIVE, ClientAuthOptions.plaintext(false), serverLogin("app", false, false));
        assertThat(denied.clientEnd()).isEqualTo(new ClientStep.Rejected(1045, "28000",
                "Access denied for user 'app'@'127.0.0.1' (using password: YES)"));
        assertThat(denied.packets()).hasSize(2);
    }

    @Test
    void serverSwitchesClientFromGreetingPluginToAccountPlugin() {
        ServerAuthExchange server = new ServerAuthExchange(PLUGINS, serverLogin("app", false, false), SHA2);
        ClientAuthExchange client = new ClientAuthExchange(PLUGINS, bytes("app"), ClientAuthOptions.plaintext(false));
        InProcessLogin.Transcript t = InProcessLogin.run(client, server, NATIVE, seed, true);
        byte[] switchRequest = ServerAuthExchange.authSwitchRequest(SHA2, seed);
        assertThat(t.packets()).containsExactly(
                "C: " + hex(MysqlNativePassword.scramble(bytes("app"), seed)),
                "S: " + hex(switchRequest),
                "C: " + hex(CachingSha2Password.scramble(bytes("app"), seed)),
                FAST_AUTH_SUCCESS,
                OK);
        assertThat(client.pluginName()).isEqualTo(SHA2);
        // 0xFE, "caching_sha2_password", NUL, the 20-byte seed, NUL.
        assertThat(switchRequest).hasSize(1 + SHA2.length() + 1 + 20 + 1);
        assertThat(switchRequest[0]).isEqualTo((byte) 0xFE);
        assertThat(switchRequest[switchRequest.length - 1]).isZero();
    }

    @Test
    void serverSwitchesCachingSha2ClientToNative() {
        InProcessLogin.Transcript t = login("app", SHA2, NATIVE, ClientAuthOptions.plaintext(false), serverLogin("app", false, false));
        assertThat(t.clientEnd()).isInstanceOf(ClientStep.Authenticated.class);
        assertThat(t.packets()).hasSize(4).containsSubsequence("S: " + hex(ServerAuthExchange.authSwitchRequest(NATIVE, seed)), OK);
    }

    @Test
    void clientWithoutPluginAuthGetsNativeOrNotSupported() {
        ServerAuthExchange nativeAccount = new ServerAuthExchange(PLUGINS, serverLogin("app", false, false), NATIVE);
        ClientAuthExchange client = new ClientAuthExchange(PLUGINS, bytes("app"), ClientAuthOptions.plaintext(false));
        assertThat(InProcessLogin.run(client, nativeAccount, NATIVE, seed, false).clientEnd())
                .isInstanceOf(ClientStep.Authenticated.class);

        ServerAuthExchange sha2Account = new ServerAuthExchange(PLUGINS, serverLogin("app", false, false), SHA2);
        assertThat(sha2Account.start(null, MysqlNativePassword.scramble(bytes("app"), seed))).isEqualTo(new ServerStep.Reject(
                1251, "08004", "Client does not support authentication protocol requested by server; consider upgrading MySQL client"));
        assertThatThrownBy(() -> sha2Account.onClientData(new byte[20]))
                .isInstanceOf(ProtocolException.class)
                .hasMessage("client packet of 20 bytes after the login ended in phase AUTH");
    }

    @Test
    void clientAnswersAnUnknownGreetingPluginWithNative() {
        ClientAuthExchange client = new ClientAuthExchange(PLUGINS, bytes("app"), ClientAuthOptions.plaintext(false));
        ClientAuthExchange.InitialResponse initial = client.start("auth_gssapi_client", seed);
        assertThat(initial.pluginName()).isEqualTo(NATIVE);
        assertThat(initial.authResponse()).isEqualTo(MysqlNativePassword.scramble(bytes("app"), seed));
    }

    @Test
    void clientAbortsOnASwitchToAnUnsupportedPlugin() {
        ClientAuthExchange client = new ClientAuthExchange(PLUGINS, bytes("app"), ClientAuthOptions.plaintext(false));
        client.start(NATIVE, seed);
        // handshake-ed25519.pcapng frame 8 has this shape: 0xFE, "client_ed25519", NUL, a 32-byte nonce.
        byte[] request = HexFormat.of().parseHex("fe" + hex(bytes("client_ed25519")) + "00" + "11".repeat(32));
        assertThat(client.onServerPacket(request)).isEqualTo(new ClientStep.Abort("the server asks for auth plugin"
                + " 'client_ed25519', which is not supported (supported: mysql_native_password, caching_sha2_password)"));
    }

    @Test
    void clientReadsErrWithAndWithoutSqlState() {
        ClientAuthExchange client = started();
        // auth-fail.pcapng frame 8, the payload after the 4-byte header.
        byte[] err = HexFormat.of().parseHex("ff15042332383030304163636573732064656e69656420666f72207573657220276170702740"
                + "276c6f63616c686f73742720287573696e672070617373776f72643a2059455329");
        assertThat(client.onServerPacket(err)).isEqualTo(new ClientStep.Rejected(1045, "28000",
                "Access denied for user 'app'@'localhost' (using password: YES)"));
        assertThat(started().onServerPacket(HexFormat.of().parseHex("ff1504" + hex(bytes("denied")))))
                .isEqualTo(new ClientStep.Rejected(1045, "HY000", "denied"));
    }

    @Test
    void clientRejectsMalformedPackets() {
        assertThatThrownBy(() -> started().onServerPacket(new byte[0]))
                .isInstanceOf(ProtocolException.class)
                .hasMessage("empty packet (expected: OK, ERR, AuthSwitchRequest or AuthMoreData) in phase AUTH");
        assertThatThrownBy(() -> started().onServerPacket(new byte[] {0x0A}))
                .isInstanceOf(ProtocolException.class)
                .hasMessage("packet header 0x0a (expected: 0x00 OK, 0xff ERR, 0xfe AuthSwitchRequest or 0x01 AuthMoreData)"
                        + " in phase AUTH");
        assertThatThrownBy(() -> started().onServerPacket(new byte[] {(byte) 0xFF, 0x15}))
                .isInstanceOf(ProtocolException.class)
                .hasMessage("int<2>: needs 2 bytes (available: 1) in ErrPacket.error_code in phase AUTH");
        assertThatThrownBy(() -> started().onServerPacket(new byte[] {(byte) 0xFE}))
                .isInstanceOf(ProtocolException.class)
                .hasMessageContaining("AuthSwitchRequest.plugin_name")
                .hasMessageEndingWith(" in phase AUTH");
        ClientAuthExchange ended = started();
        ended.onServerPacket(InProcessLogin.OK);
        assertThatThrownBy(() -> ended.onServerPacket(InProcessLogin.OK))
                .isInstanceOf(ProtocolException.class)
                .hasMessage("server packet of 7 bytes after the login ended in phase AUTH");
    }

    @Test
    void registryKnowsBothPluginsByName() {
        assertThat(PLUGINS.names()).containsExactly(NATIVE, SHA2);
        assertThat(PLUGINS.find(SHA2)).containsInstanceOf(CachingSha2Password.class);
        assertThat(PLUGINS.find("client_ed25519")).isEmpty();
        assertThatThrownBy(() -> PLUGINS.require("client_ed25519"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("auth plugin 'client_ed25519' is not supported (supported: mysql_native_password, caching_sha2_password)");
        assertThatThrownBy(() -> AuthPlugins.of(new MysqlNativePassword(), new MysqlNativePassword()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("auth plugin 'mysql_native_password' given twice");
    }

    @Test
    void generatedSeedsAvoidNulAndDollar() {
        for (int i = 0; i < 1000; i++) {
            for (byte b : AuthSeed.generate()) {
                assertThat(b).isBetween((byte) 1, (byte) 127).isNotEqualTo((byte) '$');
            }
        }
        assertThat(List.of(hex(AuthSeed.generate()), hex(AuthSeed.generate()))).doesNotHaveDuplicates();
    }

    private InProcessLogin.Transcript login(String clientPassword, String greetingPlugin, String accountPlugin,
                                            ClientAuthOptions options, ServerLogin serverLogin) {
        ServerAuthExchange server = new ServerAuthExchange(PLUGINS, serverLogin, accountPlugin);
        ClientAuthExchange client = new ClientAuthExchange(PLUGINS, bytes(clientPassword), options);
        return InProcessLogin.run(client, server, greetingPlugin, seed, true);
    }

    private ServerLogin serverLogin(String password, boolean secure, boolean forceFullAuth) {
        return new ServerLogin("app", "127.0.0.1", bytes(password), seed, secure, TestKeys.KEYS, forceFullAuth);
    }

    private ClientAuthExchange started() {
        ClientAuthExchange client = new ClientAuthExchange(PLUGINS, bytes("app"), ClientAuthOptions.plaintext(false));
        client.start(NATIVE, seed);
        return client;
    }

    private static String hex(byte[] bytes) {
        return HexFormat.of().formatHex(bytes);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
