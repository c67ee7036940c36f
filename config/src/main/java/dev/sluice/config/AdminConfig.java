package dev.sluice.config;

import java.util.Objects;

/**
 * The admin interfaces: HTTP (Prometheus {@code /metrics}, JSON under {@code /api}, {@code /health})
 * and a MySQL-protocol port that the plain {@code mariadb} client can query, logged into as
 * {@code user}. Both listen on loopback unless told otherwise; port 0 asks the system for a free one.
 *
 * @param enabled  false: neither port is opened
 * @param http     where the HTTP admin listens
 * @param sql      where the MySQL-protocol admin listens
 * @param user     the admin account (not a backend account)
 * @param password its password; {@link #toString()} never shows it
 * @param httpToken the bearer token every HTTP request but {@code /health} must carry; empty for
 *                  none, which only an HTTP port on loopback may have
 */
public record AdminConfig(boolean enabled, HostPort http, HostPort sql, String user, String password,
                          String httpToken) {

    public static final String DEFAULT_USER = "admin";
    public static final String DEFAULT_PASSWORD = "admin";

    public AdminConfig {
        Objects.requireNonNull(http, "http");
        Objects.requireNonNull(sql, "sql");
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(password, "password");
        Objects.requireNonNull(httpToken, "httpToken");
        if (user.isEmpty()) {
            throw new IllegalArgumentException("user: empty (expected: an admin user name)");
        }
        if (http.port() != 0 && http.port() == sql.port() && http.host().equals(sql.host())) {
            throw new IllegalArgumentException("http and sql: both " + http + " (expected: two different ports)");
        }
        if (enabled && httpToken.isEmpty() && !loopback(http.host())) {
            throw new IllegalArgumentException("http: " + http + " is reachable from other hosts, and /api/sessions"
                    + " shows users and addresses (expected: an http_token, or a loopback address)");
        }
    }

    /** Without an HTTP token. */
    public AdminConfig(boolean enabled, HostPort http, HostPort sql, String user, String password) {
        this(enabled, http, sql, user, password, "");
    }

    /** Whether only this machine can reach {@code host}. */
    public static boolean loopback(String host) {
        return host.equals("localhost") || host.startsWith("127.") || host.equals("::1") || host.equals("[::1]");
    }

    /** The password is the one every copy of Sluice has, or none. */
    public boolean weakPassword() {
        return password.isEmpty() || password.equals(DEFAULT_PASSWORD);
    }

    /** What a config file gets without an {@code admin} section: both ports on loopback. */
    public static AdminConfig defaults() {
        return new AdminConfig(true, new HostPort("127.0.0.1", 4080), new HostPort("127.0.0.1", 4041),
                DEFAULT_USER, DEFAULT_PASSWORD);
    }

    /** No admin ports (configs built in code, e.g. for embedding or tests, start with this). */
    public static AdminConfig disabled() {
        return new AdminConfig(false, new HostPort("127.0.0.1", 4080), new HostPort("127.0.0.1", 4041),
                DEFAULT_USER, DEFAULT_PASSWORD);
    }

    /** Both ports on 127.0.0.1:0 (free ports), for tests and embedded proxies. */
    public static AdminConfig onFreePorts(String user, String password) {
        return new AdminConfig(true, new HostPort("127.0.0.1", 0), new HostPort("127.0.0.1", 0), user, password);
    }

    @Override
    public String toString() {
        return "AdminConfig[enabled=" + enabled + ", http=" + http + ", sql=" + sql + ", user=" + user
                + ", password=" + (password.isEmpty() ? "(empty)" : "(hidden)")
                + ", httpToken=" + (httpToken.isEmpty() ? "(none)" : "(hidden)") + "]";
    }
}
