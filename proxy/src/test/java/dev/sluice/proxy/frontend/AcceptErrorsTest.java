package dev.sluice.proxy.frontend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.netty.channel.ChannelException;
import io.netty.channel.embedded.EmbeddedChannel;
import java.io.IOException;
import org.junit.jupiter.api.Test;

class AcceptErrorsTest {

    @Test
    void failedAcceptsStopAtTheListenerAndItStaysOpen() {
        EmbeddedChannel listener = new EmbeddedChannel(new AcceptErrors());
        for (int i = 0; i < 1000; i++) {
            listener.pipeline().fireExceptionCaught(new ChannelException("accept failed", new IOException("Too many open files")));
        }
        // An exception that reached the pipeline's tail would be rethrown here.
        assertThatCode(listener::checkException).doesNotThrowAnyException();
        assertThat(listener.isOpen()).isTrue();
        listener.finishAndReleaseAll();
    }
}
