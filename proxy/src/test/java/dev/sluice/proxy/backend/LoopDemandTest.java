package dev.sluice.proxy.backend;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.util.concurrent.ImmediateEventExecutor;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class LoopDemandTest {

    /** Towards a backend sent PROXY headers each client address is a key of its own. */
    @Test
    void keysLeaveOnceNoAcquisitionWaitsForThem() throws Exception {
        AtomicInteger waitingOnAllLoops = new AtomicInteger();
        LoopDemand demand = new LoopDemand(waitingOnAllLoops);
        List<LoopDemand.Waiting> waiting = new ArrayList<>();
        for (int i = 1; i <= 100; i++) {
            PoolKey key = new PoolKey("app", 0, 45, InetAddress.getByAddress(new byte[] {10, 0, 0, (byte) i}));
            LoopDemand.Waiting acquisition = new LoopDemand.Waiting(key, null, ImmediateEventExecutor.INSTANCE.newPromise());
            demand.add(acquisition);
            waiting.add(acquisition);
        }
        assertThat(demand.keysWaiting()).isEqualTo(100);
        assertThat(waitingOnAllLoops).hasValue(100);
        waiting.forEach(demand::remove);
        assertThat(demand.keysWaiting()).isZero();
        assertThat(waitingOnAllLoops).hasValue(0);
        assertThat(demand.uncovered()).isNull();
    }
}
