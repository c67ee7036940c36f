package dev.sluice.slap;

import dev.sluice.testkit.MariaDbServer;
import dev.sluice.testkit.TestUsers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static dev.sluice.slap.SlapRunner.slap;
import static org.assertj.core.api.Assertions.assertThat;

/** Failed queries are counted per code and reported; failed connects too; --fail-fast stops. */
@ExtendWith(SlapServerExtension.class)
class ErrorsIT {

    private static final String SCHEMA = "--create-schema=" + TestUsers.TEST_SCHEMA;

    @Test
    void failedQueriesAreCountedPerCodeAndTheRunGoesOn(MariaDbServer server) {
        SlapCommandTest.Run run = slap(server, SCHEMA, "--query=SELECT * FROM no_such_table;SELECT 1;SELEC 2", "-F", ";",
                "-c", "3", "--number-of-queries=9", "--csv");
        assertThat(run.exit()).as("mysqlslap's status when a query failed").isEqualTo(1);
        assertThat(run.out()).matches(",mixed,\\d+\\.\\d{3},\\d+\\.\\d{3},\\d+\\.\\d{3},3,3\n");
        assertThat(run.err()).isEqualTo("slap: concurrency 3: 6 of 9 queries failed: "
                + "1064 x3 (You have an error in your SQL syntax; check the manual that corresponds to your MariaDB"
                + " server version for the right syntax to use near 'SELEC 2' at line 1), "
                + "1146 x3 (Table 'sluice_test.no_such_table' doesn't exist)\n"
                + "slap: exit status 1: 6 queries failed in all (see above)\n");
    }

    @Test
    void failFastStopsAtTheFirstErrorWithMysqlslapsMessage(MariaDbServer server) {
        SlapCommandTest.Run run = slap(server, SCHEMA, "--query=SELECT * FROM no_such_table", "-c", "2", "--fail-fast");
        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.out()).isEmpty();
        assertThat(run.err()).isEqualTo("slap: Cannot run query SELECT * FROM no_such_table ERROR :"
                + " Table 'sluice_test.no_such_table' doesn't exist\n");
    }

    @Test
    void clientsThatCannotConnectAreReportedNotLost(MariaDbServer server) {
        SlapCommandTest.Run run = slap(server, "--create-schema=no_such_schema", "--query=SELECT 1", "-c", "2");
        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.out()).contains("\tNumber of clients running queries: 2\n");
        assertThat(run.err()).isEqualTo("slap: Error when connecting to server: 1049 Unknown database 'no_such_schema'\n"
                + "slap: concurrency 2: 2 connects failed (after 10 attempts each): 1049 x2 (Unknown database"
                + " 'no_such_schema')\n"
                + "slap: exit status 1: 2 connects failed in all (see above)\n");
    }

    @Test
    void setupConnectionFailureExitsOne(MariaDbServer server) {
        SlapCommandTest.Run run = SlapCommandTest.slap("-h", server.host(), "-P", Integer.toString(server.port()),
                "-u", TestUsers.APP_USER, "--password=wrong", "-a");
        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.err()).startsWith("slap: Error when connecting to server: Access denied for user 'app'@");
    }

    @Test
    void setupQueryFailureExitsOneWithMysqlslapsMessage(MariaDbServer server) {
        SlapCommandTest.Run run = slap(server, "--create=CREATE TABLE t (i INT", "--query=SELECT 1");
        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.err()).startsWith("slap: Cannot run query CREATE TABLE t (i INT ERROR : You have an error");
    }

    /** A server that does not answer (here: a query slower than --query-timeout) cannot hang the run. */
    @Test
    void aQueryWithNoAnswerWithinTheTimeoutIsAbandoned(MariaDbServer server) {
        long start = System.nanoTime();
        SlapCommandTest.Run run = slap(server, SCHEMA, "--query=SELECT SLEEP(10)", "-c", "2", "--number-of-queries=2",
                "--query-timeout=1");
        long seconds = java.util.concurrent.TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.err()).contains("slap: concurrency 2: 2 of 2 queries failed: timeout x2 (no answer within 1 s"
                + " (--query-timeout): the client gave up)");
        assertThat(seconds).as("abandoned after about a second, not the 10 s the server takes").isLessThan(8);
    }
}
