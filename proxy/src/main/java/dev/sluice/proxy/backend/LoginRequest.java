package dev.sluice.proxy.backend;

/**
 * What the proxy needs to log into a backend on a client's behalf.
 *
 * @param user             account name
 * @param password         its password as UTF-8 bytes
 * @param responseShaping  the client's response-shaping capabilities (see {@link CapabilityPolicy})
 * @param charset          collation id for the handshake response
 * @param schema           default schema, or null
 */
public record LoginRequest(String user, byte[] password, long responseShaping, int charset, String schema) {
}
