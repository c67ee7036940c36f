package dev.sluice.protocol.auth;

/**
 * What the client side does after a server packet. A plugin's {@link ClientAuth} returns
 * {@link Reply}, {@link AwaitResult} or {@link Abort}; {@link ClientAuthExchange}, which also
 * reads OK and ERR, ends with {@link Authenticated} or {@link Rejected}.
 */
public sealed interface ClientStep {

    /** Nothing to send: the server's OK or ERR comes next. */
    AwaitResult AWAIT_RESULT = new AwaitResult();

    /** Send this payload as the next packet, then read the server's answer. */
    record Reply(byte[] payload) implements ClientStep {
        public Reply {
            payload = payload.clone();
        }

        @Override
        public byte[] payload() {
            return payload.clone();
        }
    }

    /** Nothing to send: the server's OK or ERR comes next. */
    record AwaitResult() implements ClientStep {
    }

    /** The client cannot go on (e.g. full authentication would need TLS or an RSA key it has not got). */
    record Abort(String reason) implements ClientStep {
    }

    /** The server sent OK: logged in. The payload is the OK packet's, for the caller to decode. */
    record Authenticated(byte[] okPayload) implements ClientStep {
        public Authenticated {
            okPayload = okPayload.clone();
        }

        @Override
        public byte[] okPayload() {
            return okPayload.clone();
        }
    }

    /** The server sent ERR, e.g. 1045 for a wrong password. */
    record Rejected(int errorCode, String sqlState, String message) implements ClientStep {
    }
}
