package dev.sluice.slap;

import dev.sluice.testkit.MariaDbServer;
import dev.sluice.testkit.TestUsers;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static dev.sluice.slap.SlapRunner.slap;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The connections' character set: mariadb-slap's latin1 where the text is ASCII, utf8mb4 where it
 * is not, --default-character-set where given; the text arrives as written either way.
 */
@ExtendWith(SlapServerExtension.class)
class CharacterSetIT {

    private static final String SCHEMA = "--create-schema=" + TestUsers.TEST_SCHEMA;
    /** Each statement records the session's character sets and a text, in a utf8mb4 column. */
    private static final String RECORD = "INSERT INTO cs_seen SELECT @@character_set_client, @@character_set_results, ";

    @BeforeEach
    void emptyTable(MariaDbServer server) throws SQLException {
        try (Connection c = server.openAdmin(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS " + TestUsers.TEST_SCHEMA + ".cs_seen (client VARCHAR(32),"
                    + " results VARCHAR(32), text VARCHAR(32)) CHARACTER SET utf8mb4");
            s.execute("TRUNCATE " + TestUsers.TEST_SCHEMA + ".cs_seen");
        }
    }

    private static List<String> seen(MariaDbServer server) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Connection c = server.openAdmin(); Statement s = c.createStatement();
             ResultSet r = s.executeQuery("SELECT client, results, text FROM " + TestUsers.TEST_SCHEMA + ".cs_seen")) {
            while (r.next()) {
                rows.add(r.getString(1) + "/" + r.getString(2) + "/" + r.getString(3));
            }
        }
        return rows;
    }

    @Test
    void asciiTextGoesInLatin1AsMariadbSlapSendsIt(MariaDbServer server) throws SQLException {
        SlapCommandTest.Run run = slap(server, SCHEMA, "--query=" + RECORD + "'plain'", "-c", "2");
        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(seen(server)).containsExactly("latin1/latin1/plain", "latin1/latin1/plain");
    }

    @Test
    void otherTextGoesInUtf8mb4AndArrivesAsWritten(MariaDbServer server) throws SQLException {
        SlapCommandTest.Run run = slap(server, SCHEMA, "--query=" + RECORD + "'é ☃ 𝄞'");
        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(seen(server)).containsExactly("utf8mb4/utf8mb4/é ☃ 𝄞");
    }

    @Test
    void theOptionChoosesAndLatin1TextIsEncodedAsLatin1(MariaDbServer server) throws SQLException {
        SlapCommandTest.Run utf8 = slap(server, SCHEMA, "--default-character-set=utf8mb4", "--query=" + RECORD + "'plain'");
        assertThat(utf8.exit()).as(utf8.err()).isZero();
        SlapCommandTest.Run latin1 = slap(server, SCHEMA, "--default-character-set=latin1", "--query=" + RECORD + "'café'");
        assertThat(latin1.exit()).as(latin1.err()).isZero();
        assertThat(seen(server)).containsExactly("utf8mb4/utf8mb4/plain", "latin1/latin1/café");
    }

    @Test
    void latin1AddsNoStatementOfTheDriversOwn(MariaDbServer server) {
        SlapRunner.warmUp(server);
        Map<String, Long> grown = SlapRunner.deltas(server, () -> {
            SlapCommandTest.Run run = slap(server, "-a", "--auto-generate-sql-load-type=mixed", "-c", "4",
                    "--number-of-queries=40");
            assertThat(run.exit()).as(run.err()).isZero();
        }, "Com_set_option", "Com_select", "Connections");
        assertThat(grown).containsEntry("Com_set_option", 0L).containsEntry("Connections", 5L);
    }

    @Test
    void anUnknownCharacterSetIsAClearError(MariaDbServer server) {
        SlapCommandTest.Run run = slap(server, SCHEMA, "--default-character-set=klingon", "--query=SELECT 1");
        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.err()).contains("klingon");
    }
}
