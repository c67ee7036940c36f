package dev.sluice.protocol.auth;

import dev.sluice.protocol.ProtocolException;
import dev.sluice.protocol.packet.AuthMoreData;
import java.nio.charset.StandardCharsets;
import java.security.interfaces.RSAPublicKey;
import java.util.Arrays;
import java.util.HexFormat;

/** The client side of caching_sha2_password for one login; see {@link CachingSha2Password}. */
final class CachingSha2Client implements ClientAuth {

    private enum State { AWAIT_FAST_AUTH_RESULT, AWAIT_PUBLIC_KEY, AWAIT_RESULT }

    private final byte[] password;
    private final byte[] seed;
    private final ClientAuthOptions options;
    private State state = State.AWAIT_FAST_AUTH_RESULT;

    CachingSha2Client(byte[] password, byte[] seed, ClientAuthOptions options) {
        this.password = password.clone();
        this.seed = seed.clone();
        this.options = options;
    }

    @Override
    public String pluginName() {
        return CachingSha2Password.NAME;
    }

    @Override
    public byte[] firstResponse() {
        return CachingSha2Password.scramble(password, seed);
    }

    @Override
    public ClientStep onMoreData(AuthMoreData moreData) {
        byte[] data = moreData.data();
        return switch (state) {
            case AWAIT_FAST_AUTH_RESULT -> onFastAuthResult(data);
            case AWAIT_PUBLIC_KEY -> onPublicKey(data);
            case AWAIT_RESULT -> throw unexpected(data, "OK or ERR");
        };
    }

    private ClientStep onFastAuthResult(byte[] data) {
        if (data.length == 1 && data[0] == CachingSha2Password.FAST_AUTH_SUCCESS) {
            state = State.AWAIT_RESULT;
            return ClientStep.AWAIT_RESULT;
        }
        if (data.length == 1 && data[0] == CachingSha2Password.PERFORM_FULL_AUTHENTICATION) {
            return fullAuthentication();
        }
        throw unexpected(data, "03 (fast auth success) or 04 (perform full authentication)");
    }

    private ClientStep fullAuthentication() {
        if (options.secure()) {
            state = State.AWAIT_RESULT;
            return new ClientStep.Reply(Arrays.copyOf(password, password.length + 1));
        }
        if (options.serverPublicKey() != null) {
            return encrypted(options.serverPublicKey());
        }
        if (options.allowPublicKeyRetrieval()) {
            state = State.AWAIT_PUBLIC_KEY;
            return new ClientStep.Reply(new byte[] {CachingSha2Password.REQUEST_PUBLIC_KEY});
        }
        return new ClientStep.Abort(CachingSha2Password.NAME + ": the server asks for full authentication, which"
                + " needs TLS, a configured server public key, or permission to request the key from the server");
    }

    private ClientStep onPublicKey(byte[] data) {
        RSAPublicKey key;
        try {
            key = PemKeys.publicKeyFromPem(new String(data, StandardCharsets.US_ASCII));
        } catch (IllegalArgumentException e) {
            throw new ProtocolException(CachingSha2Password.NAME + ": public key AuthMoreData with " + data.length
                    + " bytes of data: " + e.getMessage() + " in phase AUTH", e);
        }
        return encrypted(key);
    }

    private ClientStep encrypted(RSAPublicKey key) {
        try {
            byte[] ciphertext = RsaPasswordCipher.encrypt(password, seed, key);
            state = State.AWAIT_RESULT;
            return new ClientStep.Reply(ciphertext);
        } catch (IllegalArgumentException e) {
            return new ClientStep.Abort(CachingSha2Password.NAME + ": " + e.getMessage());
        }
    }

    private ProtocolException unexpected(byte[] data, String expected) {
        String shown = HexFormat.of().formatHex(data, 0, Math.min(data.length, 8)) + (data.length > 8 ? "..." : "");
        return new ProtocolException(CachingSha2Password.NAME + ": AuthMoreData with " + data.length + " bytes of data '"
                + shown + "' (expected: " + expected + ") in phase AUTH, state " + state);
    }
}
