package dev.sluice.proxy.frontend;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.proxy.backend.BackendLoginException;
import dev.sluice.proxy.backend.LoginRequest;
import io.netty.channel.DefaultEventLoop;
import io.netty.channel.EventLoop;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.Promise;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class SchemaProofsTest {

    private final EventLoop loop = new DefaultEventLoop();
    private final SchemaProofs proofs = new SchemaProofs();
    private final AtomicInteger attempts = new AtomicInteger();
    private final List<Promise<Void>> pending = new ArrayList<>();

    @AfterEach
    void stop() {
        loop.shutdownGracefully(0, 1, TimeUnit.SECONDS);
    }

    private Future<Void> attempt(EventLoop on) {
        attempts.incrementAndGet();
        Promise<Void> promise = on.newPromise();
        pending.add(promise);
        return promise;
    }

    private static LoginRequest login(String user, String schema) {
        return new LoginRequest(user, "pw".getBytes(StandardCharsets.UTF_8), 0, 45, schema);
    }

    @Test
    void loginsWhileOneIsUnderWayWaitForItsOutcomeAndMakeNoBackendLoginOfTheirOwn() throws Exception {
        Future<Void> first = proofs.prove(login("app", "shop"), loop, this::attempt);
        Future<Void> second = proofs.prove(login("app", "shop"), loop, this::attempt);
        assertThat(second.isDone()).isFalse();

        pending.get(0).setSuccess(null);

        assertThat(first.await(1, TimeUnit.SECONDS) && second.await(1, TimeUnit.SECONDS)).isTrue();
        assertThat(second.isSuccess()).isTrue();
        assertThat(proofs.prove(login("app", "shop"), loop, this::attempt).isSuccess()).as("fresh: at once").isTrue();
        assertThat(attempts).hasValue(1);
    }

    @Test
    void anotherUserOrSchemaProvesItself() {
        proofs.prove(login("app", "shop"), loop, this::attempt);
        proofs.prove(login("app", "crm"), loop, this::attempt);
        proofs.prove(login("report", "shop"), loop, this::attempt);
        proofs.prove(login("app", null), loop, this::attempt);

        assertThat(attempts).hasValue(4);
    }

    @Test
    void aFailureReachesTheLoginsThatWaitedButNotTheNextOne() throws Exception {
        Future<Void> first = proofs.prove(login("app", "gone"), loop, this::attempt);
        Future<Void> waiting = proofs.prove(login("app", "gone"), loop, this::attempt);

        pending.get(0).setFailure(new BackendLoginException(1049, "42000", "Unknown database 'gone'", true));

        assertThat(waiting.await(1, TimeUnit.SECONDS)).isTrue();
        assertThat(first.cause()).hasMessageContaining("Unknown database");
        assertThat(waiting.cause()).isSameAs(first.cause());
        proofs.prove(login("app", "gone"), loop, this::attempt);
        assertThat(attempts).as("the next login tries again").hasValue(2);
    }
}
