package dev.sluice.protocol.auth;

import java.util.List;

/** What the server side does after a client packet. */
public sealed interface ServerStep {

    /** MySQL's ER_ACCESS_DENIED_ERROR. */
    int ACCESS_DENIED = 1045;

    /** Send this payload (AuthMoreData or AuthSwitchRequest) as the next packet, then read the client's answer. */
    record Reply(byte[] payload) implements ServerStep {
        public Reply {
            payload = payload.clone();
        }

        @Override
        public byte[] payload() {
            return payload.clone();
        }
    }

    /**
     * Logged in: send these payloads (e.g. caching_sha2_password's fast-auth-success AuthMoreData),
     * then OK.
     *
     * @param credential what logs in elsewhere as this account: its password, or the
     *                   {@code SHA1(password)} recovered from the client's mysql_native_password scramble
     *                   when the server knows only the hash
     */
    record Accept(List<byte[]> sendBeforeOk, Credential credential) implements ServerStep {
        public Accept {
            sendBeforeOk = copies(sendBeforeOk);
            java.util.Objects.requireNonNull(credential, "credential");
        }

        @Override
        public List<byte[]> sendBeforeOk() {
            return copies(sendBeforeOk);
        }

        /** Made at every login, mostly empty: a loop, not a stream's pipeline for the JIT to compile. */
        private static List<byte[]> copies(List<byte[]> payloads) {
            if (payloads.isEmpty()) {
                return List.of();
            }
            byte[][] copies = new byte[payloads.size()][];
            for (int i = 0; i < copies.length; i++) {
                copies[i] = payloads.get(i).clone();
            }
            return List.of(copies);
        }
    }

    /** Not logged in: send ERR with this code, SQL state and message, then close. */
    record Reject(int errorCode, String sqlState, String message) implements ServerStep {

        /** ERR 1045 in MySQL's words: {@code Access denied for user 'USER'@'HOST' (using password: YES)}. */
        public static Reject accessDenied(String user, String host, boolean usingPassword) {
            return new Reject(ACCESS_DENIED, "28000", "Access denied for user '" + user + "'@'" + host
                    + "' (using password: " + (usingPassword ? "YES" : "NO") + ")");
        }
    }
}
