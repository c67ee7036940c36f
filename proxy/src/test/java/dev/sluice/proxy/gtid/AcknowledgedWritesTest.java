package dev.sluice.proxy.gtid;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.BackendConfig;
import dev.sluice.config.HostPort;
import dev.sluice.config.RoutingConfig.ReadYourWritesScope;
import dev.sluice.proxy.backend.Backend;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

class AcknowledgedWritesTest {

    private final AcknowledgedWrites writes = new AcknowledgedWrites();
    private final Backend replica = new Backend(new BackendConfig("r", new HostPort("127.0.0.1", 3307),
            BackendConfig.Role.REPLICA, 1, 10));

    @Test
    void aUserSeesItsOwnWritesAndGlobalSeesEveryones() {
        writes.acknowledged("app", Gtid.parse("0-1-10"));
        writes.acknowledged("report", Gtid.parse("0-1-12"));
        writes.acknowledged("app", Gtid.parse("0-1-11"));

        assertThat(writes.position(ReadYourWritesScope.USER, "app").toString()).isEqualTo("0-1-11");
        assertThat(writes.position(ReadYourWritesScope.USER, "report").toString()).isEqualTo("0-1-12");
        assertThat(writes.position(ReadYourWritesScope.USER, "nobody").isEmpty()).isTrue();
        assertThat(writes.position(ReadYourWritesScope.GLOBAL, "nobody").toString()).isEqualTo("0-1-12");
    }

    @Test
    void aReplicaShownToHaveAPositionNeedsNoWaitForIt() {
        GtidPosition needed = GtidPosition.parse("0-1-11");
        assertThat(writes.hasApplied(replica, GtidPosition.EMPTY)).as("nothing to wait for").isTrue();
        assertThat(writes.hasApplied(replica, needed)).isFalse();
        writes.caughtUp(replica, GtidPosition.parse("0-1-12"));
        assertThat(writes.hasApplied(replica, needed)).isTrue();
        writes.caughtUp(replica, GtidPosition.parse("0-1-5"));
        assertThat(writes.hasApplied(replica, GtidPosition.parse("0-1-12"))).as("never goes back").isTrue();
        assertThat(writes.hasApplied(replica, GtidPosition.parse("0-1-13"))).isFalse();
    }

    @Test
    void theLatestWriteTimeIsPerUserAndOverall() {
        writes.wrote("app", 1_000);
        writes.wrote("app", 500);
        assertThat(writes.wroteWithin(ReadYourWritesScope.USER, "app", 1_900, 1_000)).isTrue();
        assertThat(writes.wroteWithin(ReadYourWritesScope.USER, "app", 2_000, 1_000)).isFalse();
        assertThat(writes.wroteWithin(ReadYourWritesScope.USER, "report", 1_100, 1_000)).isFalse();
        assertThat(writes.wroteWithin(ReadYourWritesScope.GLOBAL, "report", 1_100, 1_000)).isTrue();
    }

    /** Sessions on many event loops report out of order at once; the position is the highest of all. */
    @Test
    void concurrentAcknowledgementsKeepTheHighest() throws Exception {
        int threads = 4;
        int each = 20_000;
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> started = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int offset = t;
            Thread thread = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int i = each; i >= 1; i--) {
                    writes.acknowledged(offset % 2 == 0 ? "app" : "report", new Gtid(0, 1, (long) i * threads + offset));
                }
            });
            thread.start();
            started.add(thread);
        }
        start.countDown();
        for (Thread thread : started) {
            thread.join();
        }
        assertThat(writes.position(ReadYourWritesScope.GLOBAL, "app").get(0).sequence()).isEqualTo((long) each * threads + 3);
        assertThat(writes.position(ReadYourWritesScope.USER, "app").get(0).sequence()).isEqualTo((long) each * threads + 2);
    }

    /** A write lost after {@code floor} did not run when every transaction after the floor was someone's acknowledged write. */
    @Test
    void onlyAcknowledgedTransactionsAfterTheFloorProveALostWriteDidNotRun() {
        writes.acknowledged("app", Gtid.parse("0-1-10"));
        GtidPosition floor = writes.floor();
        assertThat(floor.toString()).isEqualTo("0-1-10");
        writes.acknowledged("app", Gtid.parse("0-1-12"));
        writes.acknowledged("report", Gtid.parse("0-1-11"));

        assertThat(writes.notOnlyAcknowledged(floor, GtidPosition.parse("0-1-10"))).as("nothing after the floor").isNull();
        assertThat(writes.notOnlyAcknowledged(floor, GtidPosition.parse("0-1-12"))).as("11 and 12 were told to clients")
                .isNull();
        assertThat(writes.notOnlyAcknowledged(floor, GtidPosition.parse("0-1-13"))).as("13 may be the lost write")
                .isEqualTo("transaction 0-13 (of 0-1-10 to 0-1-13) was acknowledged to no client");
        assertThat(writes.notOnlyAcknowledged(floor, GtidPosition.parse("0-1-12,1-1-1"))).as("a domain the floor lacks")
                .isEqualTo("domain 1 has transactions no write here reached");
        assertThat(writes.notOnlyAcknowledged(floor, GtidPosition.EMPTY)).as("no binlog: nothing to go by")
                .isEqualTo("no GTID position to go by (binlog empty)");
        assertThat(writes.notOnlyAcknowledged(GtidPosition.EMPTY, GtidPosition.parse("0-1-12"))).isNotNull();
    }

    @Test
    void theFloorTakesDomainsTheHealthChecksSawAndNoWriteReached() {
        writes.acknowledged("app", Gtid.parse("0-1-10"));
        writes.observed(GtidPosition.parse("0-1-8,3-1-40"));
        GtidPosition floor = writes.floor();
        assertThat(floor.toString()).isEqualTo("0-1-10,3-1-40");
        assertThat(writes.notOnlyAcknowledged(floor, GtidPosition.parse("0-1-10,3-1-40"))).isNull();
        assertThat(writes.notOnlyAcknowledged(floor, GtidPosition.parse("0-1-10,3-1-41"))).isNotNull();
    }

    @Test
    void aGapLongerThanWhatIsRememberedCannotBeShown() {
        writes.acknowledged("app", Gtid.parse("0-1-1"));
        GtidPosition floor = writes.floor();
        for (long i = 2; i <= AcknowledgedWrites.REMEMBERED + 2; i++) {
            writes.acknowledged("app", new Gtid(0, 1, i));
        }
        assertThat(writes.notOnlyAcknowledged(floor, GtidPosition.parse("0-1-" + (AcknowledgedWrites.REMEMBERED + 2))))
                .isEqualTo((AcknowledgedWrites.REMEMBERED + 1) + " transactions in domain 0 since it was sent");
        GtidPosition recent = GtidPosition.parse("0-1-" + AcknowledgedWrites.REMEMBERED);
        assertThat(writes.notOnlyAcknowledged(recent, GtidPosition.parse("0-1-" + (AcknowledgedWrites.REMEMBERED + 2))))
                .isNull();
    }
}
