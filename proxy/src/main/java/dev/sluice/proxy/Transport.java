package dev.sluice.proxy;

import io.netty.channel.IoHandlerFactory;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.channel.uring.IoUring;
import io.netty.channel.uring.IoUringIoHandler;
import io.netty.channel.uring.IoUringIoHandlerConfig;
import io.netty.channel.uring.IoUringServerSocketChannel;
import io.netty.channel.uring.IoUringSocketChannel;
import java.util.Locale;

/**
 * The Netty transport the proxy's event loops use: io_uring where the kernel and the native
 * library allow it, else epoll, else NIO. io_uring makes the same sends and receives in fewer
 * system calls (0.8 per point select against 4.3 on epoll), for about a tenth less CPU per query
 * at 16 clients (bench/overhead.sh --io-uring). {@code -Dsluice.transport=io_uring|epoll|nio}
 * asks for one; one that is not available here falls back to the next with the reason in
 * {@link #note}.
 */
public record Transport(String name, IoHandlerFactory handlers, Class<? extends ServerChannel> serverChannel,
                        Class<? extends SocketChannel> socketChannel, String note) {

    public static final String PROPERTY = "sluice.transport";

    /**
     * Completion queue entries per io_uring event loop. Netty's 4096 overflowed when 3000 sessions
     * (6000 channels) closed at once, each close completing a cancelled receive and the close: the
     * kernel keeps such completions, but Netty warns of each overflow in the proxy's log. 16 bytes an
     * entry in the ring, and where the kernel mixes 16- and 32-byte entries (IORING_SETUP_CQE_MIXED)
     * Netty keeps a ByteBuffer view of each on the heap too: 1.1 MB a loop at this size;
     * {@code -Dio.netty.iouring.cqSize} still sets it.
     */
    static final int COMPLETION_QUEUE_SIZE = 16384;

    /** The transport asked for by {@value #PROPERTY}. */
    public static Transport select() {
        return select(System.getProperty(PROPERTY, ""));
    }

    static Transport select(String asked) {
        String wanted = asked.trim().toLowerCase(Locale.ROOT);
        String note = "";
        if (wanted.isEmpty() || wanted.equals("io_uring")) {
            if (IoUring.isAvailable()) {
                return new Transport("io_uring", IoUringIoHandler.newFactory(ioUringConfig()),
                        IoUringServerSocketChannel.class, IoUringSocketChannel.class, "");
            }
            note = "io_uring is not available here (" + IoUring.unavailabilityCause() + ")";
        } else if (wanted.equals("nio")) {
            return nio("");
        } else if (!wanted.equals("epoll")) {
            note = PROPERTY + "=" + wanted + " is not a transport (expected: io_uring, epoll or nio)";
        }
        if (Epoll.isAvailable()) {
            return new Transport("epoll", EpollIoHandler.newFactory(), EpollServerSocketChannel.class,
                    EpollSocketChannel.class, note);
        }
        return nio(note + (note.isEmpty() ? "" : "; ") + "epoll is not available here (" + Epoll.unavailabilityCause() + ")");
    }

    static IoUringIoHandlerConfig ioUringConfig() {
        IoUringIoHandlerConfig config = new IoUringIoHandlerConfig();
        int netty = config.getCqSize(); // -1 where the kernel cannot size the queue
        if (System.getProperty("io.netty.iouring.cqSize") == null && netty > 0 && netty < COMPLETION_QUEUE_SIZE) {
            config.setCqSize(COMPLETION_QUEUE_SIZE);
        }
        return config;
    }

    private static Transport nio(String note) {
        return new Transport("nio", NioIoHandler.newFactory(), NioServerSocketChannel.class, NioSocketChannel.class, note);
    }
}
