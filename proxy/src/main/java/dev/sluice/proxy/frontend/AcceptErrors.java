package dev.sluice.proxy.frontend;

import dev.sluice.proxy.backend.Causes;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * On the listening socket: a failed accept (most often the open-file limit reached) leaves the
 * client waiting in the backlog until a file is free, and the listener keeps going. Netty would
 * log each one as an unhandled exception with its stack; a full proxy fails thousands a second,
 * so this says what happened once a second, with the count.
 */
@ChannelHandler.Sharable
public final class AcceptErrors extends ChannelInboundHandlerAdapter {

    private static final Logger log = LoggerFactory.getLogger(AcceptErrors.class);
    private static final long REPORT_EVERY = TimeUnit.SECONDS.toNanos(1);

    private final AtomicLong unreported = new AtomicLong();
    private volatile long lastReport = System.nanoTime() - REPORT_EVERY;

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        long failed = unreported.incrementAndGet();
        long now = System.nanoTime();
        if (now - lastReport >= REPORT_EVERY) {
            lastReport = now;
            unreported.addAndGet(-failed);
            log.warn("cannot accept client connections ({} failed since the last report): {}", failed, Causes.rootMessage(cause));
        }
    }
}
