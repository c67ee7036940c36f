package dev.sluice.slap;

import dev.sluice.testkit.MariaDbServer;
import dev.sluice.testkit.TestUsers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** A DBA's ~/.my.cnf takes slap to the server as it takes mariadb-slap; the command line wins. */
@ExtendWith(SlapServerExtension.class)
class OptionFilesIT {

    @TempDir
    Path home;

    private SlapCommandTest.Run slap(String myCnf, String... args) throws IOException {
        Path user = home.resolve(".my.cnf");
        Files.writeString(user, myCnf);
        return SlapCommandTest.slap(new OptionFiles.Locations(List.of(), user), args);
    }

    private static String client(MariaDbServer server, String password) {
        return "[client]\nhost=" + server.host() + "\nport=" + server.port() + "\nuser=" + TestUsers.APP_USER
                + "\npassword=\"" + password + "\"\n[mysqlslap]\ncreate-schema=" + TestUsers.TEST_SCHEMA + "\n";
    }

    @Test
    void theFileGivesAddressAndCredentials(MariaDbServer server) throws IOException {
        long before = server.globalStatus("Com_select");
        SlapCommandTest.Run run = slap(client(server, TestUsers.APP_PASSWORD), "--query=SELECT 1", "-c", "2",
                "--number-of-queries=10", "--csv");
        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.err()).isEmpty();
        assertThat(run.out()).matches(",mixed,\\d+\\.\\d{3},\\d+\\.\\d{3},\\d+\\.\\d{3},2,5\n");
        assertThat(server.globalStatus("Com_select") - before).isGreaterThanOrEqualTo(10);
    }

    @Test
    void aWrongPasswordInTheFileFailsAndSaysWhereItCameFrom(MariaDbServer server) throws IOException {
        SlapCommandTest.Run run = slap(client(server, "wrong"), "--query=SELECT 1");
        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.err()).startsWith("slap: Error when connecting to server: Access denied for user 'app'@")
                .contains("slap: these options came from option files: --host=" + server.host())
                .contains("--password=***** (" + home.resolve(".my.cnf") + " line 5)")
                .doesNotContain("wrong");
    }

    @Test
    void thePasswordOnTheCommandLineWinsOverTheFile(MariaDbServer server) throws IOException {
        SlapCommandTest.Run run = slap(client(server, "wrong"), "--password=" + TestUsers.APP_PASSWORD,
                "--query=SELECT 1", "--csv");
        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out()).matches(",mixed,\\d+\\.\\d{3},\\d+\\.\\d{3},\\d+\\.\\d{3},1,1\n");
    }
}
