package dev.sluice.proxy.backend;

/**
 * Backend connections with the same key are interchangeable between client sessions: same
 * account, same response-shaping capabilities, same handshake character set.
 */
record PoolKey(String user, long responseShaping, int charset) {

    static PoolKey of(LoginRequest request) {
        return new PoolKey(request.user(), request.responseShaping(), request.charset());
    }
}
