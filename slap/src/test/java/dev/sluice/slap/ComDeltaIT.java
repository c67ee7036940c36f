package dev.sluice.slap;

import dev.sluice.testkit.MariaDbServer;
import dev.sluice.testkit.TestUsers;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.Map;

import static dev.sluice.slap.SlapRunner.deltas;
import static dev.sluice.slap.SlapRunner.slap;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the server counted equals what the options imply, for each load type. Every generated run
 * pre-loads 99 INSERTs per iteration (--auto-generate-sql-write-number 100 = the CREATE TABLE plus
 * 99 INSERTs); a run with a primary key adds one SELECT per iteration that reads the keys.
 */
@ExtendWith(SlapServerExtension.class)
class ComDeltaIT {

    private static final String[] COUNTERS = {"Com_insert", "Com_select", "Com_update", "Com_create_table", "Com_commit"};

    @BeforeAll
    static void warmUp(MariaDbServer server) {
        SlapRunner.warmUp(server);
    }

    private static Map<String, Long> run(MariaDbServer server, String... args) {
        SlapCommandTest.Run[] run = new SlapCommandTest.Run[1];
        Map<String, Long> grown = deltas(server, () -> run[0] = slap(server, args), COUNTERS);
        assertThat(run[0].exit()).as(run[0].err()).isZero();
        assertThat(run[0].err()).isEmpty();
        return grown;
    }

    @Test
    void readRunsAllSelects(MariaDbServer server) {
        // 2 iterations x 4 clients x (40 / 4) SELECTs.
        assertThat(run(server, "-a", "--auto-generate-sql-load-type=read", "-c", "4", "--number-of-queries=40", "-i", "2"))
                .containsEntry("Com_select", 80L).containsEntry("Com_insert", 198L).containsEntry("Com_update", 0L)
                .containsEntry("Com_create_table", 2L);
    }

    @Test
    void keyRunsKeyedSelectsAndReadsTheKeysOnce(MariaDbServer server) {
        // 3 clients x 10 keyed SELECTs, plus the key list.
        assertThat(run(server, "-a", "--auto-generate-sql-add-autoincrement", "--auto-generate-sql-load-type=key",
                "-c", "3", "--number-of-queries=30"))
                .containsEntry("Com_select", 31L).containsEntry("Com_insert", 99L).containsEntry("Com_update", 0L);
    }

    @Test
    void writeRunsAllInserts(MariaDbServer server) {
        assertThat(run(server, "-a", "--auto-generate-sql-load-type=write", "-c", "5", "--number-of-queries=50"))
                .containsEntry("Com_insert", 149L).containsEntry("Com_select", 0L);
    }

    @Test
    void updateRunsAllUpdates(MariaDbServer server) {
        assertThat(run(server, "-a", "--auto-generate-sql-guid-primary", "--auto-generate-sql-load-type=update",
                "-c", "2", "--number-of-queries=10"))
                .containsEntry("Com_update", 10L).containsEntry("Com_select", 1L).containsEntry("Com_insert", 99L);
    }

    @Test
    void mixedCyclesThroughItsElevenStatements(MariaDbServer server) {
        // 20 per client: the list once (6 INSERT, 5 SELECT) then its first 9 (5 INSERT, 4 SELECT).
        // Virtual threads here (two clients would get platform threads), so both kinds are covered.
        assertThat(run(server, "-a", "-c", "2", "--number-of-queries=40", "--client-threads=virtual"))
                .containsEntry("Com_insert", 99L + 2 * 11).containsEntry("Com_select", 2L * 9);
    }

    @Test
    void moreClientsThanQueriesRunTheListOnceEach(MariaDbServer server) {
        SlapCommandTest.Run[] run = new SlapCommandTest.Run[1];
        Map<String, Long> grown = deltas(server,
                () -> run[0] = slap(server, "-a", "-c", "8", "--number-of-queries=4"), COUNTERS);
        assertThat(run[0].exit()).isZero();
        assertThat(run[0].err()).contains("8 clients for --number-of-queries=4")
                .contains("each client runs 11 statements");
        assertThat(run[0].out()).contains("\tNumber of clients running queries: 8\n\tAverage number of queries per client: 0\n");
        assertThat(grown).containsEntry("Com_insert", 99L + 8 * 6).containsEntry("Com_select", 8L * 5);
    }

    @Test
    void commitEveryTwoQueriesAndAtTheEnd(MariaDbServer server) {
        // 5 INSERTs per client: COMMIT after the 2nd and 4th, and the final one.
        assertThat(run(server, "-a", "--auto-generate-sql-load-type=write", "-c", "2", "--number-of-queries=10",
                "--commit=2"))
                .containsEntry("Com_commit", 6L).containsEntry("Com_insert", 99L + 10);
    }

    @Test
    void userCreateAndQueryRunAsGiven(MariaDbServer server) {
        // --query holds 2 statements, so each of 3 clients runs both once in each of 2 iterations.
        assertThat(run(server, "--create=CREATE TABLE t (i INT);INSERT INTO t VALUES (1)", "-F", ";",
                "--query=SELECT * FROM t;UPDATE t SET i = i + 1", "-c", "3", "-i", "2"))
                .containsEntry("Com_select", 6L).containsEntry("Com_update", 6L).containsEntry("Com_insert", 2L)
                .containsEntry("Com_create_table", 2L);
    }

    @Test
    void detachReconnectsAtTheStartOfEachPassAndEveryNStatements(MariaDbServer server) {
        SlapCommandTest.Run[] run = new SlapCommandTest.Run[1];
        Map<String, Long> grown = deltas(server, () -> run[0] = slap(server, "--create-schema=" + TestUsers.TEST_SCHEMA,
                "--query=SELECT 1;SELECT 2;SELECT 3;SELECT 4", "-F", ";", "--detach=2"), "Connections", "Com_select");
        assertThat(run[0].exit()).isZero();
        // The setup connection, the client's own, and a reconnect before statements 1 and 3.
        assertThat(grown).containsEntry("Connections", 4L).containsEntry("Com_select", 4L);
    }
}
