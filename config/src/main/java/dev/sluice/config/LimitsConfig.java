package dev.sluice.config;

/**
 * Bounds on what the proxy accepts and queues.
 *
 * @param maxClientConnections client connections accepted at once; more are refused
 * @param backendQueueSize     sessions that may wait for a backend connection, per backend; 0 means
 *                             none wait, they fail at once when the pool is exhausted. By default as
 *                             many as there may be clients: a session waits at most once at a time,
 *                             so every client the proxy accepts may wait its turn, as a server lets
 *                             every connection it accepted wait for a thread
 * @param allowLocalInfile     forward LOAD DATA LOCAL INFILE
 * @param maxPacketSize        the largest command, in bytes, the proxy accepts from a client
 */
public record LimitsConfig(int maxClientConnections, int backendQueueSize, boolean allowLocalInfile, int maxPacketSize) {

    public static final int DEFAULT_MAX_CLIENT_CONNECTIONS = 10_000;
    /** MySQL's own bounds for max_allowed_packet: 1 KiB to 1 GiB. */
    public static final int MIN_PACKET_SIZE = 1024;
    public static final int MAX_PACKET_SIZE = 1 << 30;

    public LimitsConfig {
        if (maxClientConnections <= 0) {
            throw new IllegalArgumentException("max_client_connections: " + maxClientConnections
                    + " is out of range (expected: an integer > 0)");
        }
        if (backendQueueSize < 0) {
            throw new IllegalArgumentException("backend_queue_size: " + backendQueueSize
                    + " is out of range (expected: an integer >= 0)");
        }
        if (maxPacketSize < MIN_PACKET_SIZE || maxPacketSize > MAX_PACKET_SIZE) {
            throw new IllegalArgumentException("max_packet_size: " + maxPacketSize + " is out of range (expected: "
                    + MIN_PACKET_SIZE + " to " + MAX_PACKET_SIZE + " bytes)");
        }
    }

    public static LimitsConfig defaults() {
        return new LimitsConfig(DEFAULT_MAX_CLIENT_CONNECTIONS, DEFAULT_MAX_CLIENT_CONNECTIONS, false, MAX_PACKET_SIZE);
    }
}
