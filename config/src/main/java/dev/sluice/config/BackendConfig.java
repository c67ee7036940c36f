package dev.sluice.config;

import java.util.Objects;

/**
 * A MySQL server behind the proxy.
 *
 * @param name           unique among backends; used in logs, stats and admin tables
 * @param address        where to connect; its port is never 0
 * @param role           primary takes writes; replicas take reads in split mode; auto is whichever
 *                       its {@code @@read_only} says, as the health checks last saw it
 * @param weight         relative share under the weighted balancer; 0 gets no new work
 * @param maxConnections the most backend connections this proxy opens to it
 * @param sendProxyProtocol each connection opened for a client starts with a PROXY protocol v2
 *                       header naming that client (MariaDB's proxy_protocol_networks)
 */
public record BackendConfig(String name, HostPort address, Role role, int weight, int maxConnections,
                            boolean sendProxyProtocol) {

    public static final int DEFAULT_WEIGHT = 1;
    public static final int DEFAULT_MAX_CONNECTIONS = 200;

    public enum Role {
        PRIMARY, REPLICA, AUTO;

        /** As written in the config: {@code primary}, {@code replica}, {@code auto}. */
        public String configName() {
            return Messages.configName(this);
        }
    }

    public BackendConfig {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(address, "address");
        Objects.requireNonNull(role, "role");
        if (name.isEmpty()) {
            throw new IllegalArgumentException("name: empty (expected: a backend name)");
        }
        if (address.port() == 0) {
            throw new IllegalArgumentException("address: " + address
                    + ": port 0 is not a backend port (expected: 1 to " + HostPort.MAX_PORT + ")");
        }
        if (weight < 0) {
            throw new IllegalArgumentException("weight: " + weight + " is out of range (expected: an integer >= 0)");
        }
        if (maxConnections <= 0) {
            throw new IllegalArgumentException("max_connections: " + maxConnections
                    + " is out of range (expected: an integer > 0)");
        }
    }

    /** A backend that is sent no PROXY protocol header. */
    public BackendConfig(String name, HostPort address, Role role, int weight, int maxConnections) {
        this(name, address, role, weight, maxConnections, false);
    }

    public BackendConfig withSendProxyProtocol(boolean send) {
        return new BackendConfig(name, address, role, weight, maxConnections, send);
    }

    /** A primary at this address, named after it, with default weight and connection limit. */
    public static BackendConfig of(HostPort address) {
        return new BackendConfig(address.toString(), address, Role.PRIMARY, DEFAULT_WEIGHT, DEFAULT_MAX_CONNECTIONS);
    }

    /** Configured as the primary; a {@code role: auto} backend may be one at run time too. */
    public boolean isPrimary() {
        return role == Role.PRIMARY;
    }

    /** Its role comes from its {@code @@read_only}: the primary while that is off. */
    public boolean isAuto() {
        return role == Role.AUTO;
    }

    public boolean isReplica() {
        return role == Role.REPLICA;
    }
}
