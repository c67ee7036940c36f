package dev.sluice.protocol.auth;

/** The server side of one plugin's exchange for one login. */
public interface ServerAuth {

    String pluginName();

    /**
     * Handles the client's next packet: first its auth response (from HandshakeResponse41 or the
     * answer to AuthSwitchRequest), then whatever the plugin asked for.
     *
     * @throws dev.sluice.protocol.ProtocolException when called after a terminal step
     */
    ServerStep onClientData(byte[] payload);

    /**
     * True when {@link #onClientData} would do private-key work on {@code payload} (an RSA
     * decryption takes about a millisecond of CPU, the first use of {@link RsaKeys} half a second
     * more to make the pair): a caller on an I/O thread runs that step elsewhere.
     */
    default boolean costly(byte[] payload) {
        return false;
    }
}
