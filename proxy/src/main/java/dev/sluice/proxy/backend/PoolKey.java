package dev.sluice.proxy.backend;

/**
 * Backend connections with the same key are interchangeable between client sessions: same
 * account, same response-shaping capabilities, same handshake character set, and, towards a
 * backend sent PROXY protocol headers, the same client address (null otherwise): its grants and
 * processlist name the client whose header opened the connection.
 */
record PoolKey(String user, long responseShaping, int charset, java.net.InetAddress client) {

    static PoolKey of(LoginRequest request, boolean perClientAddress) {
        java.net.InetAddress client = perClientAddress && request.origin() != null ? request.origin().address() : null;
        return new PoolKey(request.user(), request.responseShaping(), request.charset(), client);
    }
}
