package dev.sluice.proxy.differential;

import io.netty.buffer.AbstractByteBuf;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.util.ResourceLeakDetector;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The buffer leaks Netty's detector reports (tests run it at PARANOID), kept so a test can fail on
 * them: by itself the detector only logs. A leak is reported once the leaked buffer is collected
 * and a later allocation is tracked, so {@link #collect()} runs the GC and allocates.
 */
final class NettyLeaks {

    private final List<String> leaks = Collections.synchronizedList(new ArrayList<>());

    private NettyLeaks() {
    }

    /** Listens to the byte buffers' detector (the only listener it has: this replaces any other). */
    static NettyLeaks watch() {
        NettyLeaks watch = new NettyLeaks();
        try {
            // AbstractByteBuf.leakDetector is package-private; the test classpath has no modules.
            var field = AbstractByteBuf.class.getDeclaredField("leakDetector");
            field.setAccessible(true);
            ((ResourceLeakDetector<?>) field.get(null)).setLeakListener(
                    (type, records) -> watch.leaks.add(type + ": " + firstLines(records)));
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot listen to Netty's buffer leak detector", e);
        }
        return watch;
    }

    /** The leaks reported so far, after giving the detector a chance to find the collectable ones. */
    List<String> collect() throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(100);
            for (int j = 0; j < 100; j++) {
                ByteBuf probe = ByteBufAllocator.DEFAULT.directBuffer(16);
                probe.release();
            }
        }
        synchronized (leaks) {
            return List.copyOf(leaks);
        }
    }

    private static String firstLines(String records) {
        String[] lines = records.strip().split("\n");
        return String.join(" | ", java.util.Arrays.asList(lines).subList(0, Math.min(12, lines.length)));
    }
}
