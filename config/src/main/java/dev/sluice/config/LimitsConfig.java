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
 * @param failedLoginsBeforeDelay failed logins in a row from one address after which each further
 *                             login's answer from there waits (1 s more each time, up to 10 s); 0: never
 * @param bufferedMemory       bytes the proxy may hold in all of what it buffers for clients: split
 *                             sessions' commands of 16 MiB or more while they arrive, and capture
 *                             events waiting for the writer (at most a quarter of the JVM's memory)
 */
public record LimitsConfig(int maxClientConnections, int backendQueueSize, boolean allowLocalInfile, int maxPacketSize,
                           int failedLoginsBeforeDelay, int bufferedMemory) {

    public static final int DEFAULT_MAX_CLIENT_CONNECTIONS = 10_000;
    /** MySQL's own bounds for max_allowed_packet: 1 KiB to 1 GiB. */
    public static final int MIN_PACKET_SIZE = 1024;
    public static final int MAX_PACKET_SIZE = 1 << 30;
    /** As MySQL's connection_control plugin: three failures in a row, then each answer waits. */
    public static final int DEFAULT_FAILED_LOGINS_BEFORE_DELAY = 3;
    public static final int MIN_BUFFERED_MEMORY = 16 << 20;

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
        if (bufferedMemory < MIN_BUFFERED_MEMORY || bufferedMemory > MAX_PACKET_SIZE) {
            throw new IllegalArgumentException("buffered_memory: " + bufferedMemory + " is out of range"
                    + " (expected: " + MIN_BUFFERED_MEMORY + " to " + MAX_PACKET_SIZE + " bytes)");
        }
        if (failedLoginsBeforeDelay < 0) {
            throw new IllegalArgumentException("failed_logins_before_delay: " + failedLoginsBeforeDelay
                    + " is out of range (expected: an integer >= 0)");
        }
    }

    public LimitsConfig(int maxClientConnections, int backendQueueSize, boolean allowLocalInfile, int maxPacketSize) {
        this(maxClientConnections, backendQueueSize, allowLocalInfile, maxPacketSize, DEFAULT_FAILED_LOGINS_BEFORE_DELAY,
                MAX_PACKET_SIZE);
    }

    public LimitsConfig(int maxClientConnections, int backendQueueSize, boolean allowLocalInfile, int maxPacketSize,
                        int failedLoginsBeforeDelay) {
        this(maxClientConnections, backendQueueSize, allowLocalInfile, maxPacketSize, failedLoginsBeforeDelay,
                MAX_PACKET_SIZE);
    }

    public static LimitsConfig defaults() {
        return new LimitsConfig(DEFAULT_MAX_CLIENT_CONNECTIONS, DEFAULT_MAX_CLIENT_CONNECTIONS, false, MAX_PACKET_SIZE);
    }
}
