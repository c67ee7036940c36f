package dev.sluice.testkit;

import static dev.sluice.testkit.TestUsers.ADMIN_PASSWORD;
import static dev.sluice.testkit.TestUsers.ADMIN_USER;
import static dev.sluice.testkit.TestUsers.APP2_PASSWORD;
import static dev.sluice.testkit.TestUsers.APP2_USER;
import static dev.sluice.testkit.TestUsers.APP_PASSWORD;
import static dev.sluice.testkit.TestUsers.APP_USER;
import static dev.sluice.testkit.TestUsers.ED_PASSWORD;
import static dev.sluice.testkit.TestUsers.ED_USER;
import static dev.sluice.testkit.TestUsers.REPLICATION_PASSWORD;
import static dev.sluice.testkit.TestUsers.REPLICATION_USER;
import static dev.sluice.testkit.TestUsers.TEST_SCHEMA;

import java.io.IOException;
import java.lang.ProcessBuilder.Redirect;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The command lines and SQL that turn an empty folder into one configured server. */
final class ServerSetup {

    /** InnoDB's redo log; the 96 MiB default would make every data folder 100+ MiB. */
    private static final String REDO_LOG_SIZE = "--innodb-log-file-size=32M";
    private static final Duration INSTALL_TIMEOUT = Duration.ofMinutes(2);

    private ServerSetup() {
    }

    /** mariadb-install-db: system tables, a unix_socket administrator, no test db, no anonymous users. */
    static final List<String> INSTALL_OPTIONS = List.of(
            "--skip-name-resolve",
            "--skip-test-db",
            "--auth-root-authentication-method=socket",
            "--auth-root-socket-user=" + BundledClient.socketUser(),
            REDO_LOG_SIZE);

    static void install(String name, MariaDbBinaries binaries, ServerFolder folder) {
        List<String> command = new ArrayList<>(List.of(
                binaries.installScript().toString(),
                "--no-defaults",
                "--basedir=" + binaries.baseDir(),
                "--datadir=" + folder.dataDir(),
                // Bootstraps running side by side in the shared /tmp collided on temporary table
                // names (#sql-temptable-...) and failed or crashed about one time in six.
                "--tmpdir=" + folder.tmpDir()));
        command.addAll(INSTALL_OPTIONS);
        try {
            Process process = new ProcessBuilder(command)
                    .directory(binaries.baseDir().toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(Redirect.to(folder.installLog().toFile()))
                    .start();
            if (!process.waitFor(INSTALL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new MariaDbException(name + ": mariadb-install-db did not finish within " + INSTALL_TIMEOUT
                        + "; output:\n" + ServerFolder.tail(folder.installLog(), 0, 4000));
            }
            if (process.exitValue() != 0) {
                throw new MariaDbException(name + ": mariadb-install-db exited with code " + process.exitValue()
                        + "; output:\n" + ServerFolder.tail(folder.installLog(), 0, 4000));
            }
        } catch (IOException e) {
            throw new MariaDbException(name + ": cannot run " + binaries.installScript(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MariaDbException(name + ": interrupted while installing", e);
        }
    }

    /** A mariadbd reachable only by its socket, to create the accounts in a freshly installed folder. */
    static List<String> socketOnlyCommand(MariaDbBinaries binaries, ServerFolder folder) {
        List<String> command = new ArrayList<>(List.of(
                binaries.mariadbd().toString(),
                "--no-defaults",
                "--basedir=" + binaries.baseDir(),
                "--datadir=" + folder.dataDir(),
                "--tmpdir=" + folder.tmpDir(),
                "--socket=" + folder.socket(),
                "--pid-file=" + folder.pidFile(),
                "--skip-networking",
                "--skip-ssl",
                REDO_LOG_SIZE));
        addUserIfRoot(command);
        return command;
    }

    /** The mariadbd command line; {@code restart} lets it wait for its old port to be released. */
    static List<String> serverCommand(MariaDbBinaries binaries, ServerFolder folder, Role role, int serverId,
            int port, ClusterSpec spec, SelfSignedCertificate tls, boolean restart) {
        List<String> command = new ArrayList<>(List.of(
                binaries.mariadbd().toString(),
                "--no-defaults",
                "--basedir=" + binaries.baseDir(),
                "--datadir=" + folder.dataDir(),
                "--tmpdir=" + folder.tmpDir(),
                "--socket=" + folder.socket(),
                "--pid-file=" + folder.pidFile(),
                "--port=" + port,
                "--bind-address=127.0.0.1",
                "--skip-name-resolve",
                "--server-id=" + serverId,
                // A replica lists itself in its primary's SHOW SLAVE HOSTS only with an address.
                "--report-host=127.0.0.1",
                "--report-port=" + port,
                "--log-bin=mariadb-bin",
                "--relay-log=relay-bin",
                "--log-slave-updates",
                "--gtid-strict-mode=ON",
                "--local-infile=1",
                "--max-allowed-packet=64M",
                "--max-connections=" + spec.maxConnections(),
                REDO_LOG_SIZE,
                // Test servers share two cores and one disk: skip the fsync per commit; a SIGKILL of
                // mariadbd still loses nothing, the OS holds the writes.
                "--innodb-flush-log-at-trx-commit=2",
                "--ssl-cert=" + tls.certificatePem(),
                "--ssl-key=" + tls.privateKeyPem()));
        addUserIfRoot(command);
        if (role == Role.REPLICA) {
            command.add("--read-only=ON");
        }
        if (restart) {
            command.add("--port-open-timeout=10");
        }
        command.addAll(spec.extraServerArgs());
        return command;
    }

    /**
     * Accounts, created once in the data folder template that every server starts from, so each has
     * them from the start and no binlog (replicas' included) holds local transactions that
     * gtid_strict_mode would object to.
     */
    static String accountsSql() {
        return String.join("\n",
                // Anonymous accounts would shadow 'app'@'%' for logins from localhost.
                "DELETE FROM mysql.global_priv WHERE User = '';",
                "DELETE FROM mysql.db WHERE User = '';",
                "FLUSH PRIVILEGES;",
                createNative(ADMIN_USER, ADMIN_PASSWORD),
                "GRANT ALL PRIVILEGES ON *.* TO " + account(ADMIN_USER) + " WITH GRANT OPTION;",
                createNative(APP_USER, APP_PASSWORD),
                "GRANT ALL PRIVILEGES ON *.* TO " + account(APP_USER) + ";",
                // ALL PRIVILEGES includes READ_ONLY ADMIN, which would let app write despite
                // read_only=ON; without it a write that reaches a replica fails with 1290, as in production.
                "REVOKE READ_ONLY ADMIN ON *.* FROM " + account(APP_USER) + ";",
                createNative(APP2_USER, APP2_PASSWORD),
                "GRANT ALL PRIVILEGES ON `" + TEST_SCHEMA + "`.* TO " + account(APP2_USER) + ";",
                createNative(REPLICATION_USER, REPLICATION_PASSWORD),
                "GRANT REPLICATION SLAVE ON *.* TO " + account(REPLICATION_USER) + ";",
                "");
    }

    static List<String> edUserStatements() {
        return List.of(
                "CREATE USER " + account(ED_USER) + " IDENTIFIED VIA ed25519 USING PASSWORD('" + ED_PASSWORD + "')",
                "GRANT ALL PRIVILEGES ON *.* TO " + account(ED_USER),
                "REVOKE READ_ONLY ADMIN ON *.* FROM " + account(ED_USER));
    }

    private static void addUserIfRoot(List<String> command) {
        if ("root".equals(System.getProperty("user.name"))) {
            command.add("--user=root"); // mariadbd refuses to run as root without it
        }
    }

    static String changeMasterSql(int primaryPort) {
        return "CHANGE MASTER TO MASTER_HOST='127.0.0.1', MASTER_PORT=" + primaryPort
                + ", MASTER_USER='" + REPLICATION_USER + "', MASTER_PASSWORD='" + REPLICATION_PASSWORD + "'"
                + ", MASTER_USE_GTID=slave_pos, MASTER_CONNECT_RETRY=1";
    }

    static Path pluginDir(MariaDbBinaries binaries) {
        return binaries.baseDir().resolve("lib/plugin");
    }

    private static String createNative(String user, String password) {
        return "CREATE USER " + account(user) + " IDENTIFIED VIA mysql_native_password USING PASSWORD('"
                + password + "');";
    }

    private static String account(String user) {
        return "'" + user + "'@'%'";
    }
}
