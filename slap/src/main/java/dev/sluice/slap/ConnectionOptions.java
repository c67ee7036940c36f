package dev.sluice.slap;

/**
 * How clients reach the server: the mysql client's connection options.
 *
 * @param socket       accepted for compatibility; slap always connects over TCP
 * @param protocol     {@code tcp}, {@code socket}, {@code pipe} or {@code memory}; only TCP is used
 * @param characterSet the connections' character set (--default-character-set), or null for
 *                     mariadb-slap's latin1 where that changes nothing (see {@link Slap})
 * @param queryTimeoutSeconds a query with no answer after this long is abandoned and counted as
 *                     failed, its connection closed (a stalled server); 0 waits for ever
 */
public record ConnectionOptions(String host, int port, String user, String password, String socket,
                                String protocol, boolean compress, SslOptions ssl, String initCommand,
                                String characterSet, int queryTimeoutSeconds) {

    /** Seconds slap waits for a query's answer unless --query-timeout says otherwise. */
    public static final int DEFAULT_QUERY_TIMEOUT = 600;

    public ConnectionOptions {
        if (host == null || host.isEmpty()) {
            throw new SlapException("--host is empty (expected: a host name or address)", 1);
        }
        if (port < 1 || port > 65535) {
            throw new SlapException("--port: " + port + " (expected: 1 to 65535)", 1);
        }
        if (queryTimeoutSeconds < 0) {
            throw new SlapException("--query-timeout: " + queryTimeoutSeconds + " (expected: seconds >= 0)", 1);
        }
        if (ssl == null) {
            ssl = SslOptions.DISABLED;
        }
    }

    /** With the default query timeout. */
    public ConnectionOptions(String host, int port, String user, String password, String socket, String protocol,
                             boolean compress, SslOptions ssl, String initCommand, String characterSet) {
        this(host, port, user, password, socket, protocol, compress, ssl, initCommand, characterSet,
                DEFAULT_QUERY_TIMEOUT);
    }

    /** {@code host:port}, with brackets around an IPv6 address. */
    public String address() {
        return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
    }

    /**
     * The same options for another server, at {@code HOST:PORT} ({@code [v6]:PORT}; 3306 when no
     * port is given); {@code option} names the option it came from in errors.
     */
    public ConnectionOptions at(String address, String option) {
        String where = address.strip();
        if (where.isEmpty() || where.startsWith(":")) {
            throw new SlapException("--" + option + ": '" + address + "' (expected: HOST:PORT of the second server)", 1);
        }
        int at = 3306;
        int colon = where.lastIndexOf(':');
        boolean bracketed = where.startsWith("[");
        if (colon > 0 && (!bracketed || where.lastIndexOf(']') < colon) && (bracketed || where.indexOf(':') == colon)) {
            at = (int) MysqlNumber.parse(where.substring(colon + 1), option, 1, 65535);
            where = where.substring(0, colon);
        }
        if (bracketed && where.endsWith("]")) {
            where = where.substring(1, where.length() - 1);
        }
        return new ConnectionOptions(where, at, user, password, null, null, compress, ssl, initCommand, characterSet,
                queryTimeoutSeconds);
    }
}
