package dev.sluice.proxy.backend;

import static dev.sluice.protocol.Capabilities.*;

/**
 * Which capability bits the proxy passes between clients and backends. A bit is offered to a
 * client only when the backend has it and the proxy can carry what it changes; a backend
 * connection gets exactly the client's response-shaping bits, so the backend's bytes can be passed
 * on unchanged.
 */
public final class CapabilityPolicy {

    /**
     * Never passed on: compressed streams would hide the packets the proxy must read; the rest
     * change layouts the proxy does not parse (MySQL's optional metadata and query attributes in
     * COM_STMT_EXECUTE, multi-factor auth, MariaDB's retired COM_MULTI).
     */
    public static final long NEVER = CLIENT_COMPRESS | CLIENT_ZSTD_COMPRESSION_ALGORITHM
            | CLIENT_OPTIONAL_RESULTSET_METADATA | CLIENT_MULTI_FACTOR_AUTHENTICATION | CLIENT_CAPABILITY_EXTENSION
            | CLIENT_QUERY_ATTRIBUTES | MARIADB_CLIENT_COM_MULTI;

    /** Bits that concern one hop only (TLS, login details), decided per side by the proxy. */
    public static final long PER_HOP = CLIENT_SSL | CLIENT_CONNECT_WITH_DB | CLIENT_CONNECT_ATTRS
            | CLIENT_SSL_VERIFY_SERVER_CERT | CLIENT_REMEMBER_OPTIONS | CLIENT_PLUGIN_AUTH
            | CLIENT_PLUGIN_AUTH_LENENC_CLIENT_DATA | CLIENT_SECURE_CONNECTION | CLIENT_CAN_HANDLE_EXPIRED_PASSWORDS;

    /** What the proxy itself needs on every backend connection it logs in. */
    public static final long REQUIRED_TOWARDS_BACKEND = CLIENT_PROTOCOL_41 | CLIENT_SECURE_CONNECTION
            | CLIENT_PLUGIN_AUTH | CLIENT_PLUGIN_AUTH_LENENC_CLIENT_DATA | CLIENT_TRANSACTIONS | CLIENT_CONNECT_ATTRS;

    private CapabilityPolicy() {
    }

    /** Capabilities for the proxy's greeting to clients. */
    public static long offerToClients(long backendCapabilities, boolean clientTls, boolean allowLocalInfile) {
        long offer = backendCapabilities & ~NEVER & ~CLIENT_SSL;
        if (clientTls) {
            offer |= CLIENT_SSL;
        }
        if (!allowLocalInfile) {
            offer &= ~CLIENT_LOCAL_FILES;
        }
        return offer;
    }

    /** The bits of a client's handshake response that shape responses: a pool key component. */
    public static long responseShaping(long clientCapabilities, long offered) {
        return clientCapabilities & offered & ~NEVER & ~PER_HOP;
    }

    /** Capabilities for the proxy's handshake response to a backend. */
    public static long towardsBackend(long responseShaping, long backendCapabilities, boolean withDatabase, boolean tls) {
        long caps = (responseShaping | REQUIRED_TOWARDS_BACKEND) & backendCapabilities;
        if (withDatabase) {
            caps |= CLIENT_CONNECT_WITH_DB;
        }
        if (tls) {
            caps |= CLIENT_SSL;
        }
        // A MariaDB server reads extended capabilities only when CLIENT_MYSQL is clear.
        return caps & ~CLIENT_MYSQL;
    }
}
