package dev.sluice.proxy.memory;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryNotificationInfo;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the old generation at most about twice its live data, as Go's collector paces its heap.
 *
 * <p>The serial and parallel collectors promote what survives the young generation into the old one
 * and grow the old one whenever a promotion does not fit; they collect it only when it cannot grow
 * any more, at -Xmx, a quarter of the machine's memory by default. A proxy's sessions live a few
 * seconds in a burst of connections, long enough to be promoted, so every burst left its sessions'
 * garbage in the old generation and the process grew with each one (bursts of 3000 clients: 128,
 * 145, 163, 178 MB after the first four, 256 MB after ten, no full collection). This asks for a full
 * collection when the old generation's use crosses twice what was live after the last one (at least
 * {@link #FLOOR}), so a run's footprint follows its live data instead of its history.
 *
 * <p>Other collectors pace themselves (G1 starts marking at a share of the heap; ZGC and Shenandoah
 * collect concurrently); there this installs nothing. -XX:+DisableExplicitGC makes it a no-op.
 */
public final class OldGenerationPacer implements NotificationListener {

    private static final Logger log = LoggerFactory.getLogger(OldGenerationPacer.class);

    /** The pools of the collectors that grow their old generation instead of collecting it. */
    private static final Set<String> GROWING_OLD_GENERATIONS = Set.of("Tenured Gen", "PS Old Gen");
    /**
     * Below this, an old generation is not worth a pause: an idle proxy's live data is 10-14 MiB and
     * 3000 sessions add about 17; a collection in the middle of a burst finds most of it live.
     */
    static final long FLOOR = 32L << 20;
    private static final long GROWTH = 2;

    private final MemoryPoolMXBean oldGeneration;
    private final AtomicLong collections = new AtomicLong();

    private OldGenerationPacer(MemoryPoolMXBean oldGeneration) {
        this.oldGeneration = oldGeneration;
    }

    /** Installs the pacer for this JVM's old generation, if its collector needs one. Once per process. */
    public static Optional<OldGenerationPacer> install() {
        Optional<MemoryPoolMXBean> pool = ManagementFactory.getMemoryPoolMXBeans().stream()
                .filter(p -> p.getType() == MemoryType.HEAP && GROWING_OLD_GENERATIONS.contains(p.getName()))
                .filter(MemoryPoolMXBean::isUsageThresholdSupported)
                .findFirst();
        if (pool.isEmpty()) {
            return Optional.empty();
        }
        OldGenerationPacer pacer = new OldGenerationPacer(pool.get());
        ((NotificationEmitter) ManagementFactory.getMemoryMXBean()).addNotificationListener(pacer, null, null);
        pacer.setThreshold(pool.get().getUsage().getUsed());
        // Said once at start: the full collections it asks for show in GC logs as System.gc().
        log.info("heap: the {} is paced, collected in full when it passes twice its live data (at least {} MiB);"
                + " -XX:+DisableExplicitGC turns that off", pool.get().getName(), FLOOR >> 20);
        return Optional.of(pacer);
    }

    /** Full collections this pacer asked for. */
    public long collections() {
        return collections.get();
    }

    /** The old generation's use at which the next full collection is asked for. */
    public long threshold() {
        return oldGeneration.getUsageThreshold();
    }

    // Runs on the JVM's notification thread, after the young collection that crossed the threshold.
    @Override
    public void handleNotification(Notification notification, Object handback) {
        if (!MemoryNotificationInfo.MEMORY_THRESHOLD_EXCEEDED.equals(notification.getType())) {
            return;
        }
        MemoryNotificationInfo info = MemoryNotificationInfo.from((CompositeData) notification.getUserData());
        if (!info.getPoolName().equals(oldGeneration.getName())) {
            return;
        }
        long before = info.getUsage().getUsed();
        long started = System.nanoTime();
        System.gc();
        collections.incrementAndGet();
        long live = oldGeneration.getCollectionUsage().getUsed();
        setThreshold(live);
        log.debug("old generation at {} MiB: collected in {} ms, {} MiB live, next at {} MiB", before >> 20,
                (System.nanoTime() - started) / 1_000_000, live >> 20, threshold() >> 20);
    }

    private void setThreshold(long live) {
        long max = oldGeneration.getUsage().getMax();
        long threshold = Math.max(FLOOR, GROWTH * live);
        oldGeneration.setUsageThreshold(max > 0 ? Math.min(threshold, max) : threshold);
    }
}
