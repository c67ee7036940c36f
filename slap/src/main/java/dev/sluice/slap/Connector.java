package dev.sluice.slap;

import com.mysql.cj.conf.ConnectionUrl;
import com.mysql.cj.conf.HostInfo;
import com.mysql.cj.exceptions.CJException;
import com.mysql.cj.jdbc.ConnectionImpl;
import com.mysql.cj.jdbc.exceptions.SQLExceptionsMapping;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * Opens Connector/J connections the way mysqlslap opens libmysqlclient ones: text protocol,
 * multi-statements allowed, the schema sent in the handshake. The extra properties only remove
 * round trips Connector/J would otherwise add to every connect (the server-variables query is
 * cached after the first connection, session state is tracked locally, no SET autocommit) and
 * system calls it would add to every statement, so that a statement costs one write and one
 * read, as it does in mysqlslap.
 */
final class Connector {

    /** mysqlslap's slap_connect: 10 attempts, 100 ms apart. */
    static final int CONNECT_ATTEMPTS = 10;
    static final Duration RETRY_PAUSE = Duration.ofMillis(100);

    static {
        // Connector/J's cleanup thread tracks every connection with a phantom reference; slap closes
        // all of its connections itself.
        if (System.getProperty("com.mysql.cj.disableAbandonedConnectionCleanup") == null) {
            System.setProperty("com.mysql.cj.disableAbandonedConnectionCleanup", "true");
        }
    }

    private final ConnectionOptions options;
    private final Properties properties;
    private final String url;
    /** Per schema ("" for none): Connector/J's parsed URL and properties, see {@link #host}. */
    private final ConcurrentMap<String, HostInfo> hosts = new ConcurrentHashMap<>();

    /**
     * {@code multiStatements}: whether any statement holds a {@code ;} and so may be several, as
     * mysqlslap's CLIENT_MULTI_STATEMENTS allows. Connector/J then inspects every statement it
     * sends, which costs CPU a load client should spend elsewhere, so it is on only when needed.
     */
    Connector(ConnectionOptions options, boolean multiStatements, String characterSet) {
        this.options = options;
        Properties base = common(options, multiStatements, "slap", characterSet);
        base.setProperty("useServerPrepStmts", "false");
        // No connect timeout, as libmysqlclient has none by default: a timed connect leaves the
        // JDK socket non-blocking for good, and each read of a platform thread then costs a
        // failed read and a poll before the real one.
        base.setProperty("connectTimeout", "0");
        // The socket buffers its reads itself (see there); Connector/J's read-ahead stream would
        // ask FIONREAD before each read and read a 4-byte header alone when the reply is not there yet.
        base.setProperty("useReadAheadInput", "false");
        base.setProperty("useUnbufferedInput", "true");
        base.setProperty("socketFactory", BufferedReadSocketFactory.class.getName());
        this.properties = base;
        this.url = "jdbc:mysql://" + options.address() + "/";
    }

    /** Seconds a query may go unanswered (--query-timeout), 0 for ever. */
    int queryTimeoutSeconds() {
        return options.queryTimeoutSeconds();
    }

    /**
     * What every connection of slap's sets: credentials, multi-statements, TLS, compression, and
     * no round trips of the driver's own beyond the first connect (the server-variables query is
     * cached, session state is tracked locally, no SET autocommit), which would also show up in
     * the server's Com_select.
     */
    static Properties common(ConnectionOptions options, boolean multiStatements, String program, String characterSet) {
        Properties properties = new Properties();
        properties.setProperty("user", options.user() == null ? "" : options.user());
        if (options.password() != null) {
            properties.setProperty("password", options.password());
        }
        properties.setProperty("allowMultiQueries", Boolean.toString(multiStatements));
        properties.setProperty("cacheServerConfiguration", "true");
        characterSet(properties, characterSet);
        properties.setProperty("connectionAttributes", "program_name:" + program);
        properties.setProperty("maintainTimeStats", "false");
        properties.setProperty("useCompression", Boolean.toString(options.compress()));
        properties.setProperty("useLocalSessionState", "true");
        properties.setProperty("elideSetAutoCommits", "true");
        TlsProperties.apply(options.ssl(), properties);
        return properties;
    }

    /**
     * The connections' character set, MySQL's name. Connector/J is given Java names for the common
     * ones: with a MySQL name ("utf8mb4") every connect looks it up among the JDK's charset
     * providers in vain, which triples the driver's CPU time per connect. Results come back in the
     * same set, which the handshake already set, so the driver sends no SET of its own.
     */
    static void characterSet(Properties properties, String mysqlName) {
        String java = switch (mysqlName.toLowerCase(Locale.ROOT)) {
            case "utf8mb4" -> "UTF-8";
            case "latin1" -> "ISO-8859-1";
            case "ascii" -> "US-ASCII";
            default -> mysqlName;
        };
        if (!java.equals("UTF-8")) {
            // Without it Connector/J asks for utf8mb4, as slap always did.
            properties.setProperty("characterEncoding", java);
        }
        properties.setProperty("characterSetResults", java);
    }

    ConnectionOptions options() {
        return options;
    }

    /**
     * One attempt; {@code schema} may be null. The schema goes in a property, not in the URL, so
     * every connection of the run has the same URL and so shares the server configuration that
     * the first one (the setup connection) cached: clients connect with the handshake alone.
     */
    Connection open(String schema) throws SQLException {
        // What Connector/J's Driver.connect does for a single host, minus parsing the URL and
        // properties again (or building the key of its cache of parsed ones): a sixth of the
        // CPU of a connect before the JIT has compiled that code.
        Connection connection = ConnectionImpl.getInstance(host(schema));
        if (options.initCommand() != null) {
            try (java.sql.Statement init = connection.createStatement()) {
                init.execute(options.initCommand());
            } catch (SQLException e) {
                connection.close();
                throw e;
            }
        }
        return connection;
    }

    private HostInfo host(String schema) throws SQLException {
        String key = schema == null ? "" : schema;
        HostInfo host = hosts.get(key);
        if (host == null) {
            Properties connect = properties;
            if (schema != null) {
                connect = new Properties();
                connect.putAll(properties);
                connect.setProperty("dbname", schema);
            }
            try {
                host = ConnectionUrl.getConnectionUrlInstance(url, connect).getMainHost();
            } catch (CJException e) {
                throw SQLExceptionsMapping.translateException(e);
            }
            hosts.putIfAbsent(key, host);
        }
        return host;
    }

    /** mysqlslap's slap_connect: retries, then the last failure. */
    Connection openWithRetries(String schema) throws SQLException, InterruptedException {
        SQLException last = null;
        for (int attempt = 0; attempt < CONNECT_ATTEMPTS; attempt++) {
            try {
                return open(schema);
            } catch (SQLException e) {
                last = e;
                Thread.sleep(RETRY_PAUSE);
            }
        }
        throw last;
    }

    /** mysqlslap's "%d %s" for an error: the server's code, or the SQLSTATE when there is none. */
    static String describe(SQLException e) {
        return errorKey(e) + " " + firstLine(e.getMessage());
    }

    static String errorKey(SQLException e) {
        if (e.getErrorCode() != 0) {
            return Integer.toString(e.getErrorCode());
        }
        return e.getSQLState() == null ? "client" : e.getSQLState();
    }

    static String firstLine(String message) {
        if (message == null) {
            return "";
        }
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }
}
