package dev.sluice.proxy.backend;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.ChannelException;
import java.io.IOException;
import org.junit.jupiter.api.Test;

class CausesTest {

    @Test
    void theInnermostMessageOrElseItsClass() {
        assertThat(Causes.rootMessage(new ChannelException("Unable to create Channel from class X",
                new IOException("Too many open files")))).isEqualTo("Too many open files");
        assertThat(Causes.rootMessage(new IllegalStateException("plain"))).isEqualTo("plain");
        assertThat(Causes.rootMessage(new ChannelException("wrapped", new NullPointerException())))
                .isEqualTo("NullPointerException");
    }
}
