package dev.sluice.proxy.backend;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.util.concurrent.DefaultThreadFactory;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;

/** Two proxies in one JVM: each one's count holds only its own connections' commands, from any of its loops. */
class CommandsInFlightTest {

    @Test
    void eachProxyCountsOnlyItsOwnCommands() throws Exception {
        CommandsInFlight first = new CommandsInFlight();
        CommandsInFlight second = new CommandsInFlight();
        ExecutorService oneLoop = Executors.newSingleThreadExecutor(new DefaultThreadFactory("one"));
        ExecutorService otherLoop = Executors.newSingleThreadExecutor(new DefaultThreadFactory("other"));
        try {
            oneLoop.submit(() -> {
                first.sent();
                first.sent();
                second.sent();
            }).get();
            otherLoop.submit(first::sent).get();
            assertThat(first.count()).isEqualTo(3);
            assertThat(second.count()).isEqualTo(1);
            otherLoop.submit(() -> first.ended(2)).get();
            assertThat(first.count()).isEqualTo(1);
            assertThat(second.count()).isEqualTo(1);
            first.ended(0);
            assertThat(first.count()).as("ending no command changes nothing").isEqualTo(1);
        } finally {
            oneLoop.shutdownNow();
            otherLoop.shutdownNow();
        }
    }
}
