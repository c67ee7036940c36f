package dev.sluice.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.epoll.Epoll;
import io.netty.channel.uring.IoUring;
import org.junit.jupiter.api.Test;

class TransportTest {

    private static String fallback() {
        return Epoll.isAvailable() ? "epoll" : "nio";
    }

    @Test
    void theDefaultIsEpollWhereItLoads() {
        assertThat(Transport.select("").name()).isEqualTo(fallback());
        assertThat(Transport.select("").note()).isEqualTo(Epoll.isAvailable() ? "" : "epoll is not available here ("
                + Epoll.unavailabilityCause() + ")");
    }

    @Test
    void eachNamedTransportOrTheReasonItIsNot() {
        assertThat(Transport.select("NIO").name()).isEqualTo("nio");
        Transport uring = Transport.select(" io_uring ");
        if (IoUring.isAvailable()) {
            assertThat(uring.name()).isEqualTo("io_uring");
            assertThat(uring.note()).isEmpty();
        } else {
            assertThat(uring.name()).isEqualTo(fallback());
            assertThat(uring.note()).startsWith("io_uring is not available here");
        }
    }

    @Test
    void anUnknownNameFallsBackAndSaysSo() {
        Transport unknown = Transport.select("kqueue");
        assertThat(unknown.name()).isEqualTo(fallback());
        assertThat(unknown.note()).isEqualTo("sluice.transport=kqueue is not a transport (expected: epoll, io_uring or nio)");
    }
}
