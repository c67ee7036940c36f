package dev.sluice.protocol.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

class RsaPasswordCipherTest {

    private static final HexFormat HEX = HexFormat.of();
    /** go-sql-driver/mysql auth_test.go, TestAuthFastCachingSHA256PasswordFullRSA's authData. */
    private static final byte[] SEED = HEX.parseHex("065160720e2a321e4c2f015f7e513e5e53503455");

    /**
     * Made with OpenSSL's RSA_PKCS1_OAEP_PADDING, the padding MySQL's server and libmysqlclient use:
     * ("secret" + NUL) XOR SEED = 753403006b5e32, then
     * {@code openssl pkeyutl -encrypt -pubin -inkey test-rsa-public.pem -pkeyopt rsa_padding_mode:oaep}.
     */
    @Test
    void decryptsWhatOpenSslEncrypted() {
        byte[] ciphertext = HEX.parseHex(TestKeys.resource("openssl-oaep-secret.hex").strip());
        assertThat(RsaPasswordCipher.decrypt(ciphertext, SEED, TestKeys.PAIR.privateKey()))
                .isEqualTo("secret".getBytes(StandardCharsets.US_ASCII));
    }

    @Test
    void wrongSeedOrGarbageDecryptsToNothing() {
        byte[] ciphertext = HEX.parseHex(TestKeys.resource("openssl-oaep-secret.hex").strip());
        // A seed whose byte 6 is not 0x32 leaves the last byte non-NUL: not a password.
        byte[] otherSeed = HEX.parseHex("0a2f4a6f4b492230584c724a250d035052021715");
        assertThat(RsaPasswordCipher.decrypt(ciphertext, otherSeed, TestKeys.PAIR.privateKey())).isNull();
        assertThat(RsaPasswordCipher.decrypt(new byte[256], SEED, TestKeys.PAIR.privateKey())).isNull();
        assertThat(RsaPasswordCipher.decrypt(new byte[] {2}, SEED, TestKeys.PAIR.privateKey())).isNull();
    }

    @Test
    void encryptionIsRandomizedAndRoundTrips() {
        byte[] password = "pässword".getBytes(StandardCharsets.UTF_8);
        byte[] first = RsaPasswordCipher.encrypt(password, SEED, TestKeys.PAIR.publicKey());
        byte[] second = RsaPasswordCipher.encrypt(password, SEED, TestKeys.PAIR.publicKey());
        assertThat(first).hasSize(256).isNotEqualTo(second);
        assertThat(RsaPasswordCipher.decrypt(first, SEED, TestKeys.PAIR.privateKey())).isEqualTo(password);
        assertThat(RsaPasswordCipher.decrypt(second, SEED, TestKeys.PAIR.privateKey())).isEqualTo(password);
    }

    @Test
    void longestPasswordThatFitsOneBlock() {
        byte[] password = new byte[213];
        Arrays.fill(password, (byte) 'x');
        byte[] ciphertext = RsaPasswordCipher.encrypt(password, SEED, TestKeys.PAIR.publicKey());
        assertThat(RsaPasswordCipher.decrypt(ciphertext, SEED, TestKeys.PAIR.privateKey())).isEqualTo(password);
    }
}
