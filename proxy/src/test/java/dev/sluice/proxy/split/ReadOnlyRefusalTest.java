package dev.sluice.proxy.split;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.BackendConfig;
import dev.sluice.config.HostPort;
import dev.sluice.proxy.backend.Backend;
import dev.sluice.proxy.command.Replies;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import org.junit.jupiter.api.Test;

class ReadOnlyRefusalTest {

    private final ReadOnlyRefusal refusal = new ReadOnlyRefusal();
    private final Backend auto = backend(BackendConfig.Role.AUTO);

    private static Backend backend(BackendConfig.Role role) {
        return new Backend(new BackendConfig("b", new HostPort("127.0.0.1", 3306), role, 1, 10));
    }

    private static ByteBuf err(int code) {
        return Replies.err(ByteBufAllocator.DEFAULT, 1, code, "HY000",
                "The MariaDB server is running with the --read-only option so it cannot execute this statement");
    }

    @Test
    void theFirstBytesOfAReadOnlyRefusalAreHeldBackUntilTaken() {
        refusal.sent(true, auto);
        ByteBuf refused = err(ReadOnlyRefusal.OPTION_PREVENTS_STATEMENT);
        assertThat(refusal.hold(refused, true)).isTrue();
        assertThat(refusal.holding()).isTrue();
        ByteBuf taken = refusal.take();
        assertThat(taken.readableBytes()).isEqualTo(refused.readableBytes());
        assertThat(taken.getUnsignedShortLE(5)).isEqualTo(1290);
        taken.release();
        assertThat(refusal.holding()).isFalse();
    }

    @Test
    void otherAnswersAndStatementsThatMayNotRunAgainGoThrough() {
        refusal.sent(true, auto);
        ByteBuf duplicate = err(1062);
        assertThat(refusal.hold(duplicate, true)).as("another error").isFalse();
        duplicate.release();
        ByteBuf later = err(1290);
        assertThat(refusal.hold(later, false)).as("not the response's first bytes").isFalse();

        refusal.sent(false, auto);
        assertThat(refusal.hold(later, true)).as("in a transaction, say").isFalse();
        refusal.sent(true, backend(BackendConfig.Role.PRIMARY));
        assertThat(refusal.hold(later, true)).as("a fixed primary's refusal is the client's").isFalse();
        later.release();
    }

    @Test
    void aStatementIsRetriedAtMostThreeTimes() {
        for (int i = 0; i < 3; i++) {
            refusal.sent(true, auto);
            assertThat(refusal.hold(err(1290), true)).isTrue();
            refusal.retried();
        }
        refusal.sent(true, auto);
        ByteBuf fourth = err(1290);
        assertThat(refusal.hold(fourth, true)).isFalse();
        fourth.release();
        refusal.reset();
        refusal.sent(true, auto);
        assertThat(refusal.hold(err(1290), true)).as("a new statement").isTrue();
        refusal.release();
    }
}
