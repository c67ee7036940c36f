package dev.sluice.proxy.mirror;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;

/**
 * What the mirror did since the proxy started: copies queued for the shadow, dropped (queue
 * full), compared (the shadow answered), mismatched (its answer differed from the client's) and
 * failed (the shadow could not answer: down, too slow, lost); and the same per digest, bounded.
 */
public final class MirrorStats {

    /** Digests kept; the least used go past it (as the digests table does). */
    static final int MAX_DIGESTS = 1000;

    private final LongAdder queued = new LongAdder();
    private final LongAdder dropped = new LongAdder();
    private final LongAdder compared = new LongAdder();
    private final LongAdder mismatched = new LongAdder();
    private final LongAdder failed = new LongAdder();
    private final LongAdder skipped = new LongAdder();
    private final Cache<Long, MirrorDigest> digests = Caffeine.newBuilder().maximumSize(MAX_DIGESTS).build();

    boolean knows(long digest) {
        return digests.getIfPresent(digest) != null;
    }

    void queued() {
        queued.increment();
    }

    void dropped() {
        dropped.increment();
    }

    /** Chosen for the shadow but not sent: the client's answer could not be compared (LOAD DATA LOCAL, cut short). */
    void skipped() {
        skipped.increment();
    }

    /** The shadow answered {@code copy}; {@code difference} says how its answer differed (null: it did not). */
    void compared(MirrorCopy copy, long shadowNanos, String difference, boolean shadowError) {
        compared.increment();
        if (difference != null) {
            mismatched.increment();
        }
        digest(copy).compared(copy.clientNanos, shadowNanos, difference, shadowError, copy.text());
    }

    void failed(MirrorCopy copy, String reason) {
        failed.increment();
        digest(copy).failed(reason, copy.text());
    }

    private MirrorDigest digest(MirrorCopy copy) {
        return digests.get(copy.digest, d -> new MirrorDigest(d, copy.digestText != null ? copy.digestText : copy.text()));
    }

    public long queuedCount() {
        return queued.sum();
    }

    public long droppedCount() {
        return dropped.sum();
    }

    public long comparedCount() {
        return compared.sum();
    }

    public long mismatchedCount() {
        return mismatched.sum();
    }

    public long failedCount() {
        return failed.sum();
    }

    public long skippedCount() {
        return skipped.sum();
    }

    /** Every digest kept, mismatches first, then by copies compared. */
    public List<MirrorDigest> digests() {
        List<MirrorDigest> all = new ArrayList<>(digests.asMap().values());
        all.sort((a, b) -> a.mismatched() != b.mismatched() ? Long.compare(b.mismatched(), a.mismatched())
                : Long.compare(b.compared(), a.compared()));
        return all;
    }
}
