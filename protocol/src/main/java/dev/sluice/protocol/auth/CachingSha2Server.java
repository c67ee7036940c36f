package dev.sluice.protocol.auth;

import dev.sluice.protocol.ProtocolException;
import dev.sluice.protocol.packet.AuthMoreData;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * The server side of caching_sha2_password for one login; see {@link CachingSha2Password}. Like
 * MySQL, a scramble that does not match (wrong password or unknown user) is not refused at once
 * but answered with "perform full authentication", so the client cannot tell the two apart and
 * only the full check decides.
 */
final class CachingSha2Server implements ServerAuth {

    private enum State { AWAIT_SCRAMBLE, AWAIT_PASSWORD, AWAIT_ENCRYPTED_PASSWORD, DONE }

    private static final byte[] FAST_AUTH_SUCCESS = moreData(new byte[] {CachingSha2Password.FAST_AUTH_SUCCESS});
    private static final byte[] PERFORM_FULL_AUTHENTICATION =
            moreData(new byte[] {CachingSha2Password.PERFORM_FULL_AUTHENTICATION});

    private final ServerLogin login;
    private final byte[] seed;
    private State state = State.AWAIT_SCRAMBLE;

    CachingSha2Server(ServerLogin login) {
        this.login = login;
        this.seed = login.seed();
    }

    @Override
    public String pluginName() {
        return CachingSha2Password.NAME;
    }

    @Override
    public ServerStep onClientData(byte[] payload) {
        return switch (state) {
            case AWAIT_SCRAMBLE -> onScramble(payload);
            case AWAIT_PASSWORD -> onPassword(payload);
            case AWAIT_ENCRYPTED_PASSWORD -> verify(RsaPasswordCipher.decrypt(payload, seed, login.rsaKeys().pair().privateKey()));
            case DONE -> throw new ProtocolException(CachingSha2Password.NAME + ": client packet of " + payload.length
                    + " bytes after the exchange ended in phase AUTH");
        };
    }

    @Override
    public boolean costly(byte[] payload) {
        if (state == State.AWAIT_ENCRYPTED_PASSWORD) {
            return true;
        }
        boolean keyRequest = payload.length == 1 && payload[0] == CachingSha2Password.REQUEST_PUBLIC_KEY;
        // The first request for the public key makes the pair: a key generation, not a lookup.
        return state == State.AWAIT_PASSWORD && !login.secure() && (!keyRequest || !login.rsaKeys().ready());
    }

    private ServerStep onScramble(byte[] payload) {
        if (Digests.isEmptyResponse(payload)) {
            state = State.DONE;
            boolean emptyPassword = login.knownUser() && login.password().length == 0;
            return emptyPassword ? new ServerStep.Accept(List.of(), login.credential()) : deny(false);
        }
        if (!login.forceFullAuth()) {
            byte[] expected = CachingSha2Password.scramble(login.passwordOrStandIn(), seed);
            if (Digests.constantTimeEquals(expected, payload) && login.knownUser()) {
                state = State.DONE;
                return new ServerStep.Accept(List.of(FAST_AUTH_SUCCESS), login.credential());
            }
        }
        state = State.AWAIT_PASSWORD;
        return new ServerStep.Reply(PERFORM_FULL_AUTHENTICATION);
    }

    private ServerStep onPassword(byte[] payload) {
        if (login.secure()) {
            boolean nulTerminated = payload.length > 0 && payload[payload.length - 1] == 0;
            return verify(nulTerminated ? Arrays.copyOf(payload, payload.length - 1) : payload);
        }
        if (payload.length == 1 && payload[0] == CachingSha2Password.REQUEST_PUBLIC_KEY) {
            state = State.AWAIT_ENCRYPTED_PASSWORD;
            return new ServerStep.Reply(moreData(login.rsaKeys().pair().publicKeyPem().getBytes(StandardCharsets.US_ASCII)));
        }
        return verify(RsaPasswordCipher.decrypt(payload, seed, login.rsaKeys().pair().privateKey()));
    }

    /** Compares digests, so the time taken depends neither on where the passwords differ nor on their lengths. */
    private ServerStep verify(byte[] candidate) {
        state = State.DONE;
        boolean match = candidate != null
                && Digests.constantTimeEquals(Digests.sha256(candidate), Digests.sha256(login.passwordOrStandIn()));
        return match && login.knownUser() ? new ServerStep.Accept(List.of(), login.credential()) : deny(true);
    }

    private static byte[] moreData(byte[] data) {
        return Payloads.encode(new AuthMoreData(data));
    }

    private ServerStep deny(boolean usingPassword) {
        return ServerStep.Reject.accessDenied(login.user(), login.host(), usingPassword);
    }
}
