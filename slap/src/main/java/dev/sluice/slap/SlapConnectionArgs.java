package dev.sluice.slap;

import picocli.CommandLine.Option;

import java.util.Locale;
import java.util.Set;
import java.util.function.Supplier;

/** The mysql client's connection options, shared by commands that connect like it. */
public final class SlapConnectionArgs {

    private static final Set<String> PROTOCOLS = Set.of("tcp", "socket", "pipe", "memory");

    @Option(names = {"-h", "--host"}, paramLabel = "name", description = "Connect to host (default localhost).")
    private String host = "localhost";

    @Option(names = {"-P", "--port"}, paramLabel = "#", description = "Port number to use for connection (default 3306).")
    private String port = "3306";

    @Option(names = {"-u", "--user"}, paramLabel = "name", description = "User for login if not current user.")
    private String user;

    @Option(names = {"-p", "--password"}, arity = "0..1", fallbackValue = SlapCommand.ASK_PASSWORD, paramLabel = "name",
            description = "Password to use when connecting to server. If password is not given it's asked from the tty.")
    private String password;

    @Option(names = {"-S", "--socket"}, paramLabel = "name", description = "Accepted for compatibility; slap connects over TCP.")
    private String socket;

    @Option(names = "--protocol", paramLabel = "name", description = "The protocol to use for connection (tcp, socket, pipe); slap uses TCP.")
    private String protocol;

    @Option(names = {"-C", "--compress"}, description = "Use compression in server/client protocol.")
    private boolean compress;

    @Option(names = "--default-character-set", paramLabel = "name", description = "Character set of the connections."
            + " Default: latin1, as mariadb-slap, when every statement, the user, password and schema are ASCII;"
            + " otherwise utf8mb4.")
    private String characterSet;

    @Option(names = "--init-command", paramLabel = "name", description = "SQL Command to execute when connecting to the server, again on each reconnect.")
    private String initCommand;

    @Option(names = "--ssl", description = "Enable SSL for connection (automatically enabled with other flags).")
    private boolean ssl;

    @Option(names = "--skip-ssl", description = "Disable SSL (the default for slap).")
    private boolean skipSsl;

    @Option(names = "--ssl-ca", paramLabel = "name", description = "CA file in PEM format (implies --ssl).")
    private String sslCa;

    @Option(names = "--ssl-capath", paramLabel = "name", description = "CA directory (implies --ssl).")
    private String sslCapath;

    @Option(names = "--ssl-cert", paramLabel = "name", description = "X509 cert in PEM format (implies --ssl).")
    private String sslCert;

    @Option(names = "--ssl-key", paramLabel = "name", description = "X509 key in PEM format (implies --ssl).")
    private String sslKey;

    @Option(names = "--ssl-cipher", paramLabel = "name", description = "SSL cipher to use, Java (IANA) names (implies --ssl).")
    private String sslCipher;

    @Option(names = "--ssl-crl", paramLabel = "name", description = "Not supported: Connector/J cannot check a CRL file.")
    private String sslCrl;

    @Option(names = "--ssl-crlpath", paramLabel = "name", description = "Not supported: Connector/J cannot check a CRL folder.")
    private String sslCrlpath;

    @Option(names = "--tls-version", paramLabel = "name", description = "TLS protocol version for secure connection (implies --ssl).")
    private String tlsVersion;

    @Option(names = "--ssl-verify-server-cert", description = "Verify server's certificate to prevent man-in-the-middle attacks.")
    private boolean verifyServerCert;

    void applyTo(SlapOptions.Builder builder, Supplier<String> askPassword) {
        if (sslCrl != null || sslCrlpath != null) {
            throw new SlapException("--ssl-crl and --ssl-crlpath are not supported: Connector/J, which slap"
                    + " connects with, cannot check certificate revocation lists", 1);
        }
        if (protocol != null && !PROTOCOLS.contains(protocol.toLowerCase(Locale.ROOT))) {
            throw new SlapException("Unknown option to protocol: " + protocol
                    + "\nAlternatives are: 'TCP','SOCKET','PIPE','MEMORY'", 1);
        }
        boolean implied = ssl || sslCa != null || sslCapath != null || sslCert != null || sslKey != null
                || sslCipher != null || tlsVersion != null || verifyServerCert;
        builder.host(host)
                .port((int) MysqlNumber.parse(port, "port", 1, 65535))
                .password(SlapCommand.ASK_PASSWORD.equals(password) ? askPassword.get() : password)
                .socket(socket)
                .protocol(protocol)
                .compress(compress)
                .initCommand(initCommand)
                .characterSet(characterSet)
                .ssl(new SslOptions(implied && !skipSsl, sslCa, sslCapath, sslCert, sslKey, sslCipher, tlsVersion,
                        verifyServerCert));
        if (user != null) {
            builder.user(user);
        }
    }
}
