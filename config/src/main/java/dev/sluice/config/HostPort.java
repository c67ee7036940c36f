package dev.sluice.config;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A host and a TCP port, written {@code host:port}, or {@code [v6-address]:port} for IPv6. The
 * host is kept without brackets. Port 0 is allowed here because a listener may ask the system for
 * any free port; a backend address needs a real one.
 */
public record HostPort(String host, int port) {

    public static final int MAX_PORT = 65535;

    private static final Pattern HOST_NAME = Pattern.compile("[A-Za-z0-9_.-]+");
    private static final Pattern IPV6 = Pattern.compile("[0-9A-Fa-f:.]+(%[A-Za-z0-9_.-]+)?");
    private static final Pattern DIGITS = Pattern.compile("[0-9]+");
    private static final String EXPECTED = "(expected: host:port, e.g. 127.0.0.1:3306 or [::1]:3306)";

    public HostPort {
        Objects.requireNonNull(host, "host");
        if (!HOST_NAME.matcher(host).matches() && !isIpv6(host)) {
            throw new IllegalArgumentException("host " + quote(host) + " is not a host name or IP address");
        }
        if (port < 0 || port > MAX_PORT) {
            throw new IllegalArgumentException("port " + port + " is out of range (expected: 0 to " + MAX_PORT + ")");
        }
    }

    /** The default listen address, all IPv4 interfaces on 4040. */
    public static HostPort defaultListen() {
        return new HostPort("0.0.0.0", 4040);
    }

    /**
     * Parses {@code host:port} or {@code [v6]:port}.
     *
     * @throws IllegalArgumentException naming what was read and what was expected
     */
    public static HostPort parse(String text) {
        Objects.requireNonNull(text, "text");
        String host;
        String port;
        if (text.startsWith("[")) {
            int close = text.indexOf(']');
            if (close < 0) {
                throw new IllegalArgumentException(quote(text) + " has no closing ']' " + EXPECTED);
            }
            host = text.substring(1, close);
            if (close + 1 >= text.length() || text.charAt(close + 1) != ':') {
                throw new IllegalArgumentException(quote(text) + " has no port " + EXPECTED);
            }
            if (!isIpv6(host)) {
                throw new IllegalArgumentException(quote(text) + ": " + quote(host)
                        + " in brackets is not an IPv6 address " + EXPECTED);
            }
            port = text.substring(close + 2);
        } else {
            int colon = text.lastIndexOf(':');
            if (colon < 0) {
                throw new IllegalArgumentException(quote(text) + " has no port " + EXPECTED);
            }
            host = text.substring(0, colon);
            port = text.substring(colon + 1);
            if (host.indexOf(':') >= 0) {
                throw new IllegalArgumentException(quote(text)
                        + ": an IPv6 address needs brackets (expected: [" + host + "]:" + port + ")");
            }
            if (host.isEmpty()) {
                throw new IllegalArgumentException(quote(text) + " has no host " + EXPECTED);
            }
            if (!HOST_NAME.matcher(host).matches()) {
                throw new IllegalArgumentException(quote(text) + ": " + quote(host)
                        + " is not a host name or IP address " + EXPECTED);
            }
        }
        return new HostPort(host, parsePort(text, port));
    }

    private static int parsePort(String text, String port) {
        if (port.isEmpty()) {
            throw new IllegalArgumentException(quote(text) + " has no port " + EXPECTED);
        }
        if (!DIGITS.matcher(port).matches()) {
            throw new IllegalArgumentException(quote(text) + ": port " + quote(port)
                    + " is not a number (expected: 0 to " + MAX_PORT + ")");
        }
        if (port.length() > 5 || Integer.parseInt(port) > MAX_PORT) {
            throw new IllegalArgumentException(quote(text) + ": port " + port
                    + " is out of range (expected: 0 to " + MAX_PORT + ")");
        }
        return Integer.parseInt(port);
    }

    private static boolean isIpv6(String host) {
        return host.indexOf(':') >= 0 && IPV6.matcher(host).matches();
    }

    private static String quote(String text) {
        return '"' + text + '"';
    }

    /** {@code host:port}, with brackets around an IPv6 host, so that {@link #parse} reads it back. */
    @Override
    public String toString() {
        return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
    }
}
