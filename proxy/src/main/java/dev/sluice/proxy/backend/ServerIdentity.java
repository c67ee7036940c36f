package dev.sluice.proxy.backend;

/**
 * What a backend's greeting says about it, reused in the proxy's own greeting so clients see the
 * real server's version and capabilities.
 */
public record ServerIdentity(String serverVersion, long capabilities, int charset) {

    /** MariaDB or MySQL, by the version string. */
    public ServerFlavor flavor() {
        return ServerFlavor.ofVersion(serverVersion);
    }

    /** Used until a backend has been reached. */
    public static final ServerIdentity UNKNOWN = new ServerIdentity("8.0.40-sluice",
            dev.sluice.protocol.Capabilities.CLIENT_PROTOCOL_41
                    | dev.sluice.protocol.Capabilities.CLIENT_SECURE_CONNECTION
                    | dev.sluice.protocol.Capabilities.CLIENT_PLUGIN_AUTH
                    | dev.sluice.protocol.Capabilities.CLIENT_PLUGIN_AUTH_LENENC_CLIENT_DATA
                    | dev.sluice.protocol.Capabilities.CLIENT_TRANSACTIONS
                    | dev.sluice.protocol.Capabilities.CLIENT_CONNECT_WITH_DB
                    | dev.sluice.protocol.Capabilities.CLIENT_MULTI_RESULTS
                    | dev.sluice.protocol.Capabilities.CLIENT_MULTI_STATEMENTS
                    | dev.sluice.protocol.Capabilities.CLIENT_PS_MULTI_RESULTS
                    | dev.sluice.protocol.Capabilities.CLIENT_CONNECT_ATTRS
                    | dev.sluice.protocol.Capabilities.CLIENT_LONG_PASSWORD, 45);
}
