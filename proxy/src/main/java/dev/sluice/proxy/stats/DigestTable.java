package dev.sluice.proxy.stats;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;

/**
 * Query digests by fingerprint, bounded: past {@code maxDigests} the least used go (Caffeine's
 * frequency-based eviction, off the event loops) and are counted. Lookups are lock-free; only a
 * digest seen for the first time pays for its normalized text.
 */
public final class DigestTable {

    private final Cache<Long, DigestStats> digests;
    private final LongAdder evicted = new LongAdder();
    private volatile boolean enabled;

    public DigestTable(int maxDigests, boolean enabled) {
        this.enabled = enabled;
        this.digests = Caffeine.newBuilder()
                .maximumSize(maxDigests)
                .removalListener((Long key, DigestStats value, com.github.benmanes.caffeine.cache.RemovalCause cause) -> {
                    if (cause.wasEvicted()) {
                        evicted.increment();
                    }
                })
                .build();
    }

    public boolean enabled() {
        return enabled;
    }

    public void enabled(boolean on) {
        this.enabled = on;
    }

    /** The digest for {@code fingerprint}, or null when it is not kept (new, or evicted). */
    DigestStats find(long fingerprint) {
        return digests.getIfPresent(fingerprint);
    }

    /** Adds a digest not kept yet; when another thread just added it, that one is returned. */
    DigestStats add(long fingerprint, String normalizedText, long nowMillis) {
        return digests.get(fingerprint, k -> new DigestStats(fingerprint, normalizedText, nowMillis));
    }

    /** Every digest kept now, in no particular order. */
    public List<DigestStats> snapshot() {
        return new ArrayList<>(digests.asMap().values());
    }

    public long size() {
        digests.cleanUp();
        return digests.estimatedSize();
    }

    /** Digests dropped to stay within the bound since the start (or the last reset). */
    public long evicted() {
        return evicted.sum();
    }

    public void maxDigests(int max) {
        digests.policy().eviction().ifPresent(eviction -> eviction.setMaximum(max));
    }

    public void reset() {
        digests.invalidateAll();
        digests.cleanUp();
        evicted.reset();
    }
}
