package dev.sluice.proxy.capture;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.proxy.memory.MemoryBudget;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class StatementQueueTest {

    private static CapturedStatement statement(long session, long n) {
        return new CapturedStatement(3, session, "u", null, null, null, false, null, n, 0, null, null, false, 0, true);
    }

    @Test
    void holdsExactlyItsCapacityInOrder() {
        for (int capacity : new int[] {1, 2, 3, 5, 16}) {
            StatementQueue queue = new StatementQueue(capacity);
            List<CapturedStatement> out = new ArrayList<>();
            for (int lap = 0; lap < 3; lap++) {
                for (int i = 0; i < capacity; i++) {
                    assertThat(queue.offer(statement(1, lap * 100 + i))).isTrue();
                }
                assertThat(queue.offer(statement(1, -1))).as("capacity %d full", capacity).isFalse();
                assertThat(queue.size()).isEqualTo(capacity);
                out.clear();
                assertThat(queue.drainTo(out, Integer.MAX_VALUE)).isEqualTo(capacity);
                for (int i = 0; i < capacity; i++) {
                    assertThat(out.get(i).statementId).isEqualTo(lap * 100 + i);
                }
                assertThat(queue.drainTo(out, 10)).isZero();
            }
        }
    }

    /** Long statements fill the queue by their size before its count: a full queue holds no gigabytes. */
    @Test
    void takesTheBytesItHoldsFromTheBudget() {
        MemoryBudget budget = new MemoryBudget(10_000);
        StatementQueue queue = new StatementQueue(1000, budget);
        int accepted = 0;
        while (queue.offer(withText(3_000))) {
            accepted++;
        }
        assertThat(accepted).isEqualTo(3);
        assertThat(queue.bytes()).isLessThanOrEqualTo(10_000).isEqualTo(budget.held());
        assertThat(queue.offer(withText(10))).as("a short one still fits").isTrue();
        List<CapturedStatement> out = new ArrayList<>();
        assertThat(queue.drainTo(out, Integer.MAX_VALUE)).isEqualTo(4);
        assertThat(budget.held()).as("drained, nothing held").isZero();
        assertThat(budget.reserve(9_000)).as("another holder of the budget").isTrue();
        assertThat(queue.offer(withText(3_000))).as("what others hold counts").isFalse();
        budget.release(9_000);
        assertThat(queue.offer(withText(3_000))).isTrue();
    }

    private static CapturedStatement withText(int length) {
        return new CapturedStatement(3, 1, "u", null, null, new byte[length], false, null, 1, 0, null, null, false,
                length, true);
    }

    @Test
    void producersOnSeveralThreadsLoseNothingTheyWereToldWasQueued() throws Exception {
        StatementQueue queue = new StatementQueue(64);
        int producers = 4;
        int each = 200_000;
        AtomicLong accepted = new AtomicLong();
        CountDownLatch done = new CountDownLatch(producers);
        for (int p = 0; p < producers; p++) {
            long session = p;
            Thread.ofPlatform().start(() -> {
                // A producer can run all its offers while the consumer is descheduled and the queue
                // full, so it goes on (bounded in time) until some of its own got through.
                long deadline = System.nanoTime() + 20_000_000_000L;
                int mine = 0;
                for (int i = 0; i < each || (mine == 0 && System.nanoTime() < deadline); i++) {
                    if (queue.offer(statement(session, i))) {
                        accepted.incrementAndGet();
                        mine++;
                    }
                }
                done.countDown();
            });
        }
        List<CapturedStatement> taken = new ArrayList<>();
        long[] last = {-1, -1, -1, -1};
        while (done.getCount() > 0 || queue.size() > 0) {
            taken.clear();
            queue.drainTo(taken, 100);
            for (CapturedStatement s : taken) {
                // Each producer's statements come out in the order it offered them.
                assertThat(s.statementId).isGreaterThan(last[(int) s.sessionId]);
                last[(int) s.sessionId] = s.statementId;
                accepted.decrementAndGet();
            }
        }
        assertThat(accepted.get()).isZero();
        assertThat(java.util.Arrays.stream(last).min().orElseThrow()).as("every producer got some through").isNotNegative();
    }
}
