package dev.sluice.protocol.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * An account known only by its mysql_native_password hash ({@code *} + SHA1(SHA1(password)) in hex):
 * the server side checks a client's scramble against it, recovers SHA1(password) from that scramble,
 * and the client side logs in elsewhere with what it recovered.
 */
class NativeHashLoginTest {

    private static final HexFormat HEX = HexFormat.of();
    private static final AuthPlugins PLUGINS = AuthPlugins.standard();
    private static final MysqlNativePassword NATIVE = new MysqlNativePassword();
    /** SHA1("password"), hash stage 1 (the SHA-1 test vector every SHA-1 table lists). */
    private static final String SHA1_OF_PASSWORD = "5baa61e4c9b93f3f0682250b6cf8331b7ee68fd8";

    /**
     * {@code SELECT PASSWORD(...)}: 'mypass' as the MySQL 5.7 Reference Manual prints it (Encryption
     * and Compression Functions, PASSWORD()); 'password' and 'app' as MariaDB answers, which
     * PasswordHashIT asks a real server for.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "mypass, *6C8989366EAF75BB670AD8EA7A7FC1176A95CEF4",
        "password, *2470C0C06DEE42FD1618BB99005ADCA2EC9D1E19",
        "app, *5BCB3E6AC345B435C7C2E6B7949A04CE6F6563D3",
    })
    void stageTwoIsWhatPasswordGives(String password, String hash) {
        assertThat(Credential.parseNativeHash(hash).sha1()).isEqualTo(Credential.password(bytes(password)).nativeStage2());
        assertThat(Credential.parseNativeHash(hash.toLowerCase()).sha1()).as("either case")
                .isEqualTo(Credential.parseNativeHash(hash).sha1());
    }

    /**
     * The seeds and scrambles of MysqlNativePasswordTest's published vectors (vertx testEncode and
     * testEncode2, the MariaDB 10.11 capture), checked against the hash alone.
     */
    @ParameterizedTest(name = "{0} / {1}")
    @CsvSource({
        "password, 1838557e3a776535341f444a36605d795c096c08, f2671df1862aed0340be809405b30bb93d29142d",
        "password, 420f34686f77671814573d0439701f4658514931, cc93fb6f68af2e9446dafc0a1667d015b0a49550",
        "app, 6972214a3154354c5c6b28226e27712b7d57797b, 5c600cbcf8eb867d6b9195789f5642d310cf6ab6",
    })
    void hashAloneAcceptsTheRightScrambleAndRecoversStageOne(String password, String seed, String scramble) {
        Credential.NativeStage2 account = new Credential.NativeStage2(Credential.password(bytes(password)).nativeStage2());

        ServerStep step = NATIVE.startServer(login(account, HEX.parseHex(seed))).onClientData(HEX.parseHex(scramble));

        assertThat(step).isInstanceOf(ServerStep.Accept.class);
        Credential recovered = ((ServerStep.Accept) step).credential();
        assertThat(recovered).isInstanceOf(Credential.NativeStage1.class);
        assertThat(((Credential.NativeStage1) recovered).sha1()).isEqualTo(sha1(password));
    }

    @Test
    void recoveredStageOneLogsInAsThePasswordWould() {
        // vertx testEncode's scramble, recovered with the hash of "password"...
        byte[] stage1 = MysqlNativePassword.recoverStage1(HEX.parseHex("f2671df1862aed0340be809405b30bb93d29142d"),
                HEX.parseHex("1838557e3a776535341f444a36605d795c096c08"),
                Credential.parseNativeHash("*2470C0C06DEE42FD1618BB99005ADCA2EC9D1E19").sha1());
        assertThat(HEX.formatHex(stage1)).isEqualTo(SHA1_OF_PASSWORD);
        // ... answers testEncode2's seed with testEncode2's scramble, as the password itself does.
        ClientAuth client = NATIVE.startClient(new Credential.NativeStage1(stage1),
                HEX.parseHex("420f34686f77671814573d0439701f4658514931"), ClientAuthOptions.plaintext(false));
        assertThat(HEX.formatHex(client.firstResponse())).isEqualTo("cc93fb6f68af2e9446dafc0a1667d015b0a49550");
    }

    @Test
    void hashRefusesAWrongPasswordAndMalformedScrambles() {
        Credential account = Credential.parseNativeHash("*5BCB3E6AC345B435C7C2E6B7949A04CE6F6563D3");
        // auth-fail.pcapng: the scramble of "wrong" for this seed.
        byte[] seed = HEX.parseHex("4e3459417b68753440263c3b536f56407d755529");
        ServerStep.Reject denied = ServerStep.Reject.accessDenied("app", "10.0.0.7", true);

        assertThat(NATIVE.startServer(login(account, seed)).onClientData(HEX.parseHex("7fcf9c7559a825102dfa132577c79b795286b17a")))
                .isEqualTo(denied);
        assertThat(NATIVE.startServer(login(account, seed)).onClientData(new byte[19])).as("truncated").isEqualTo(denied);
        assertThat(NATIVE.startServer(login(account, seed)).onClientData(new byte[21])).as("too long").isEqualTo(denied);
        assertThat(NATIVE.startServer(login(account, seed)).onClientData(new byte[0])).as("empty")
                .isEqualTo(ServerStep.Reject.accessDenied("app", "10.0.0.7", false));
    }

    @Test
    void passwordAccountsHandTheirPasswordOn() {
        byte[] seed = AuthSeed.generate();
        Credential account = Credential.password(bytes("app"));

        ServerStep step = NATIVE.startServer(login(account, seed)).onClientData(MysqlNativePassword.scramble(bytes("app"), seed));

        assertThat(((ServerStep.Accept) step).credential()).isEqualTo(account);
    }

    @Test
    void aCachingSha2ClientIsSwitchedToNativeForAHashAccount() {
        byte[] seed = AuthSeed.generate();
        ServerLogin account = new ServerLogin("app", "10.0.0.7", Credential.parseNativeHash("*5BCB3E6AC345B435C7C2E6B7949A04CE6F6563D3"),
                seed, false, TestKeys.KEYS, true);
        ServerAuthExchange server = new ServerAuthExchange(PLUGINS, account, CachingSha2Password.NAME);
        ClientAuthExchange client = new ClientAuthExchange(PLUGINS, bytes("app"), ClientAuthOptions.plaintext(false));

        InProcessLogin.Transcript t = InProcessLogin.run(client, server, CachingSha2Password.NAME, seed, true);

        assertThat(server.pluginName()).isEqualTo(MysqlNativePassword.NAME);
        assertThat(t.packets().get(1)).isEqualTo("S: " + HEX.formatHex(ServerAuthExchange.authSwitchRequest(MysqlNativePassword.NAME, seed)));
        assertThat(t.clientEnd()).isInstanceOf(ClientStep.Authenticated.class);
        assertThat(((ServerStep.Accept) t.serverEnd()).credential()).isInstanceOf(Credential.NativeStage1.class);
    }

    @Test
    void stageOneAnswersACachingSha2GreetingWithNativeAndAbortsASwitchBack() {
        byte[] seed = AuthSeed.generate();
        Credential stage1 = new Credential.NativeStage1(sha1("app"));
        ClientAuthExchange client = new ClientAuthExchange(PLUGINS, stage1, ClientAuthOptions.plaintext(false));

        ClientAuthExchange.InitialResponse initial = client.start(CachingSha2Password.NAME, seed);

        assertThat(initial.pluginName()).isEqualTo(MysqlNativePassword.NAME);
        assertThat(initial.authResponse()).isEqualTo(MysqlNativePassword.scramble(bytes("app"), seed));
        ClientStep step = client.onServerPacket(ServerAuthExchange.authSwitchRequest(CachingSha2Password.NAME, seed));
        assertThat(step).isEqualTo(new ClientStep.Abort("the server asks for auth plugin 'caching_sha2_password',"
                + " which needs the password itself; only its mysql_native_password hash is known here"));
    }

    @Test
    void stageOneLogsIntoANativeServerThatKnowsThePassword() {
        byte[] seed = AuthSeed.generate();
        ServerAuthExchange server = new ServerAuthExchange(PLUGINS,
                new ServerLogin("app", "10.0.0.7", bytes("app"), seed, false, TestKeys.KEYS, true), MysqlNativePassword.NAME);
        ClientAuthExchange client = new ClientAuthExchange(PLUGINS,
                new Credential.NativeStage1(sha1("app")), ClientAuthOptions.plaintext(false));

        assertThat(InProcessLogin.run(client, server, MysqlNativePassword.NAME, seed, true).clientEnd())
                .isInstanceOf(ClientStep.Authenticated.class);
    }

    @Test
    void malformedHashesAreRefusedWithoutShowingThem() {
        for (String bad : new String[] {"2470C0C06DEE42FD1618BB99005ADCA2EC9D1E19", "*2470C0C06DEE42FD1618BB99005ADCA2EC9D1E1",
                "*2470C0C06DEE42FD1618BB99005ADCA2EC9D1E1G", "*2470C0C06DEE42FD1618BB99005ADCA2EC9D1E19A"}) {
            assertThatThrownBy(() -> Credential.parseNativeHash(bad)).as(bad)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("not a mysql_native_password hash (expected: * and 40 hex digits)");
        }
        assertThat(Credential.parseNativeHash("*2470C0C06DEE42FD1618BB99005ADCA2EC9D1E19").toString())
                .doesNotContain("2470").doesNotContain("24 70");
    }

    @Test
    void aHashCannotLogInAnywhere() {
        Credential hash = Credential.parseNativeHash("*2470C0C06DEE42FD1618BB99005ADCA2EC9D1E19");
        assertThat(NATIVE.canLogIn(hash)).isFalse();
        assertThat(new CachingSha2Password().canLogIn(new Credential.NativeStage1(new byte[20]))).isFalse();
        assertThatThrownBy(() -> NATIVE.startClient(hash, AuthSeed.generate(), ClientAuthOptions.plaintext(false)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("needs SHA1(password) or the password");
    }

    private static ServerLogin login(Credential account, byte[] seed) {
        return new ServerLogin("app", "10.0.0.7", account, seed, false, TestKeys.KEYS, true);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** SHA1 of a password, computed the plain way so the tests do not lean on the code under test. */
    private static byte[] sha1(String password) {
        try {
            return java.security.MessageDigest.getInstance("SHA-1").digest(bytes(password));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }
}
