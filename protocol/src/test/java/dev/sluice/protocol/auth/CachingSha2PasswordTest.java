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

/** The plugin's formula against published vectors, and its client side step by step. */
class CachingSha2PasswordTest {

    private static final HexFormat HEX = HexFormat.of();
    private static final CachingSha2Password PLUGIN = new CachingSha2Password();

    /** go-sql-driver/mysql auth_test.go, TestAuthFastCachingSHA256PasswordFullRSA: the seed, and the PEM key it answers a key request with. */
    private static final String GO_SEED = "065160720e2a321e4c2f015f7e513e5e53503455";
    private static final String GO_SERVER_PUBLIC_KEY = """
            -----BEGIN PUBLIC KEY-----
            MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA3HsxS5P/HaXPvm3m2ADn
            bu6GQfpSGo7h2gh81pmaxkCnDCwf6mmeH7LKhsnYnN4Q0cz1QE/bhdPu6js+VaY4
            CcMubPN1gOKaYvNcgEWptICi2XTttB7uh+vCMjLvjAMd6/DmxdbUB0zPGqDOgiLD
            KROO5qd7shb71R/XJEFvLxGXEF0ZthHeNo9fEvxFQomb1kZ9J8nBwte5SF5YlqV2
            BB5qlaz+3QSNvmC1iWfljXbY5k3/a6mkM/LaWhauN5PR3sCx5Uu1MfdsVik5fXMM
            dxkfF+X3chkAnwI3Fuww2WGmWOGbKtmIeUm3bIRmdFUqalQiFhqeZ2ikjhgVI9pL
            wQIDAQAB
            -----END PUBLIC KEY-----
            """;

    /**
     * Published vectors: password, seed, scramble (hex).
     * <ul>
     * <li>eclipse-vertx/vertx-sql-client, vertx-mysql-client/src/test/java/io/vertx/mysqlclient/impl/util/CachingSha2AuthenticatorTest.java
     *     (testEncode, testEncode2)</li>
     * <li>go-sql-driver/mysql, auth_test.go: TestScrambleSHA256Pass (two passwords, one seed),
     *     TestAuthFastCachingSHA256PasswordCached and TestAuthFastCachingSHA256PasswordFullRSA (expectedAuthResp)</li>
     * </ul>
     */
    @ParameterizedTest(name = "{3}")
    @CsvSource({
        "password, 36474805036c6e60547350612b1b12046e5a7960, 83ad20dc9b0c61f959fb93f451a42fc2d15ab811b882d667fe8f0fcd0a8acaeb, vertx testEncode",
        "password, 6f2d5c6d660410702b71377663392a026d4a2547, 3d58c194ffdaf1f80a6c5ef67700608b07f9a29d37c9e2307aaf690c6e5526ab, vertx testEncode2",
        "secret, 0a2f4a6f4b492230584c724a250d035052021715, f490e76f66d9d86665ce54d98c78d0acfe2fb0b08b423da807144873d30b312c, go TestScrambleSHA256Pass secret",
        "secret2, 0a2f4a6f4b492230584c724a250d035052021715, abc3934a012cf342e876071c8ee202de51785b430258a7a0138bc79c4d800bc6, go TestScrambleSHA256Pass secret2",
        "secret, 5a694a7e1e3025380317737f45162954207b2b76, 662005238fa18cf1abe8388b2b0e6bc4f9aa933cdccc78b2d60fb8961a3d39eb, go TestAuthFastCachingSHA256PasswordCached",
        "secret, 065160720e2a321e4c2f015f7e513e5e53503455, abc98a92599f0baa0043a531af5eda44b16d6e5622212cbe43f0466e288b7c29, go TestAuthFastCachingSHA256PasswordFullRSA",
    })
    void scrambleMatchesPublishedVectors(String password, String seed, String scramble, String source) {
        assertThat(HEX.formatHex(CachingSha2Password.scramble(bytes(password), HEX.parseHex(seed)))).isEqualTo(scramble);
        ClientAuth client = PLUGIN.startClient(bytes(password), HEX.parseHex(seed + "00"), ClientAuthOptions.plaintext(false));
        assertThat(HEX.formatHex(client.firstResponse())).isEqualTo(scramble);
    }

    @Test
    void emptyPasswordSendsEmptyResponse() {
        // go-sql-driver TestAuthFastCachingSHA256PasswordEmpty: a zero-length auth response.
        ClientAuth client = PLUGIN.startClient(new byte[0], HEX.parseHex(GO_SEED), ClientAuthOptions.plaintext(false));
        assertThat(client.firstResponse()).isEmpty();
    }

    @Test
    void fastAuthSuccessWaitsForOk() {
        ClientAuth client = client("secret", ClientAuthOptions.plaintext(false));
        assertThat(client.onMoreData(moreData(3))).isEqualTo(ClientStep.AWAIT_RESULT);
        assertThatThrownBy(() -> client.onMoreData(moreData(3)))
                .isInstanceOf(ProtocolException.class)
                .hasMessage("caching_sha2_password: AuthMoreData with 1 bytes of data '03' (expected: OK or ERR) in phase AUTH,"
                        + " state AWAIT_RESULT");
    }

    @Test
    void fullAuthOverTlsSendsPasswordAndNul() {
        // go-sql-driver TestAuthFastCachingSHA256PasswordFullSecure: after 01 04 the client writes "secret\0".
        ClientAuth client = client("secret", ClientAuthOptions.tls());
        assertThat(client.onMoreData(moreData(4)))
                .isInstanceOfSatisfying(ClientStep.Reply.class,
                        reply -> assertThat(reply.payload()).isEqualTo("secret\0".getBytes(StandardCharsets.US_ASCII)));
    }

    @Test
    void fullAuthWithoutTlsRequestsTheKeyThenEncrypts() {
        // go-sql-driver TestAuthFastCachingSHA256PasswordFullRSA: after 01 04 the client writes 02, the server
        // answers 01 + its PEM, the client then writes the encrypted password.
        ClientAuth client = client("secret", ClientAuthOptions.plaintext(true));
        assertThat(client.onMoreData(moreData(4)))
                .isInstanceOfSatisfying(ClientStep.Reply.class, reply -> assertThat(reply.payload()).containsExactly(2));
        ClientStep step = client.onMoreData(moreData(GO_SERVER_PUBLIC_KEY));
        // 2048-bit key: one 256-byte OAEP block. go's test has no private key to decrypt it with.
        assertThat(step).isInstanceOfSatisfying(ClientStep.Reply.class, reply -> assertThat(reply.payload()).hasSize(256));
    }

    @Test
    void fullAuthEncryptsWithRetrievedKeySoTheServerCanDecrypt() {
        byte[] seed = HEX.parseHex(GO_SEED);
        ClientAuth client = client("secret", ClientAuthOptions.plaintext(true));
        client.onMoreData(moreData(4));
        ClientStep step = client.onMoreData(moreData(TestKeys.PAIR.publicKeyPem()));
        byte[] ciphertext = ((ClientStep.Reply) step).payload();
        assertThat(RsaPasswordCipher.decrypt(ciphertext, seed, TestKeys.PAIR.privateKey())).isEqualTo(bytes("secret"));
    }

    @Test
    void fullAuthWithConfiguredKeyEncryptsAtOnce() {
        ClientAuth client = client("secret", ClientAuthOptions.plaintext(TestKeys.PAIR.publicKey()));
        ClientStep step = client.onMoreData(moreData(4));
        byte[] ciphertext = ((ClientStep.Reply) step).payload();
        assertThat(RsaPasswordCipher.decrypt(ciphertext, HEX.parseHex(GO_SEED), TestKeys.PAIR.privateKey()))
                .isEqualTo(bytes("secret"));
    }

    @Test
    void fullAuthWithoutTlsKeyOrRetrievalAborts() {
        ClientAuth client = client("secret", ClientAuthOptions.plaintext(false));
        assertThat(client.onMoreData(moreData(4))).isEqualTo(new ClientStep.Abort(
                "caching_sha2_password: the server asks for full authentication, which needs TLS, a configured server"
                        + " public key, or permission to request the key from the server"));
    }

    @Test
    void malformedServerDataIsAProtocolException() {
        assertThatThrownBy(() -> client("secret", ClientAuthOptions.tls()).onMoreData(moreData(7)))
                .isInstanceOf(ProtocolException.class)
                .hasMessage("caching_sha2_password: AuthMoreData with 1 bytes of data '07' (expected: 03 (fast auth success) or 04"
                        + " (perform full authentication)) in phase AUTH, state AWAIT_FAST_AUTH_RESULT");
        assertThatThrownBy(() -> client("secret", ClientAuthOptions.tls()).onMoreData(new AuthMoreData(new byte[0])))
                .isInstanceOf(ProtocolException.class)
                .hasMessageStartingWith("caching_sha2_password: AuthMoreData with 0 bytes of data '' (expected: 03");
        ClientAuth awaitingKey = client("secret", ClientAuthOptions.plaintext(true));
        awaitingKey.onMoreData(moreData(4));
        assertThatThrownBy(() -> awaitingKey.onMoreData(moreData("not a key")))
                .isInstanceOf(ProtocolException.class)
                .hasMessage("caching_sha2_password: public key AuthMoreData with 9 bytes of data: PEM: no '-----BEGIN PUBLIC KEY-----'"
                        + " ... '-----END PUBLIC KEY-----' block (first line: 'not a key') in phase AUTH");
    }

    @Test
    void passwordTooLongForOneRsaBlockAborts() {
        ClientAuth client = PLUGIN.startClient(new byte[214], HEX.parseHex(GO_SEED), ClientAuthOptions.plaintext(TestKeys.PAIR.publicKey()));
        assertThat(client.onMoreData(moreData(4))).isEqualTo(new ClientStep.Abort("caching_sha2_password: password of 214"
                + " bytes is too long for RSA-OAEP with a 2048-bit key (at most 213)"));
    }

    private static ClientAuth client(String password, ClientAuthOptions options) {
        return PLUGIN.startClient(bytes(password), HEX.parseHex(GO_SEED), options);
    }

    private static AuthMoreData moreData(int code) {
        return new AuthMoreData(new byte[] {(byte) code});
    }

    private static AuthMoreData moreData(String text) {
        return new AuthMoreData(text.getBytes(StandardCharsets.US_ASCII));
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
