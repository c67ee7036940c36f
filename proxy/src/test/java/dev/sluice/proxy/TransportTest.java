package dev.sluice.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.netty.channel.epoll.Epoll;
import io.netty.channel.uring.IoUring;
import io.netty.channel.uring.IoUringIoHandlerConfig;
import org.junit.jupiter.api.Test;

class TransportTest {

    private static String epollOrNio() {
        return Epoll.isAvailable() ? "epoll" : "nio";
    }

    @Test
    void theDefaultIsIoUringWhereTheKernelAllowsItElseEpoll() {
        Transport chosen = Transport.select("");
        if (IoUring.isAvailable()) {
            assertThat(chosen.name()).isEqualTo("io_uring");
            assertThat(chosen.note()).isEmpty();
        } else {
            assertThat(chosen.name()).isEqualTo(epollOrNio());
            assertThat(chosen.note()).startsWith("io_uring is not available here (");
        }
    }

    @Test
    void eachNamedTransportOrTheReasonItIsNot() {
        assertThat(Transport.select("NIO").name()).isEqualTo("nio");
        Transport epoll = Transport.select(" epoll ");
        assertThat(epoll.name()).isEqualTo(epollOrNio());
        assertThat(epoll.note()).isEqualTo(Epoll.isAvailable() ? "" : "epoll is not available here ("
                + Epoll.unavailabilityCause() + ")");
        Transport uring = Transport.select("IO_URING");
        assertThat(uring.name()).isEqualTo(IoUring.isAvailable() ? "io_uring" : epollOrNio());
    }

    @Test
    void anUnknownNameFallsBackToEpollAndSaysSo() {
        Transport unknown = Transport.select("kqueue");
        assertThat(unknown.name()).isEqualTo(epollOrNio());
        assertThat(unknown.note()).startsWith("sluice.transport=kqueue is not a transport (expected: io_uring, epoll or nio)");
    }

    @Test
    void ioUringLoopsKeepRoomForAMassCloseUnlessNettysPropertySaysOtherwise() {
        assumeTrue(IoUring.isAvailable(), "io_uring is not available here: " + IoUring.unavailabilityCause());
        assertThat(Transport.ioUringConfig().getCqSize()).isEqualTo(Transport.COMPLETION_QUEUE_SIZE);
        String before = System.getProperty("io.netty.iouring.cqSize");
        System.setProperty("io.netty.iouring.cqSize", "8192");
        try {
            assertThat(Transport.ioUringConfig().getCqSize()).isEqualTo(new IoUringIoHandlerConfig().getCqSize());
        } finally {
            if (before == null) {
                System.clearProperty("io.netty.iouring.cqSize");
            } else {
                System.setProperty("io.netty.iouring.cqSize", before);
            }
        }
    }
}
