package dev.sluice.protocol.checksum;

import io.netty.buffer.ByteBuf;

/**
 * The rows of one result as two 64-bit checksums, one that depends on their order and one that
 * does not (the sum of the rows' hashes), so that two servers' answers compare equal when they
 * hold the same rows, in the same order where the statement asked for one (see {@link OrderBy}).
 * Each row is first hashed on its own with FNV-1a ({@link #fnv}); the caller decides what a row's
 * bytes are (slap: its values as text; the proxy's mirror: the row packet's bytes). Equal
 * checksums mean equal rows, unless 64-bit hashes collide.
 */
public final class RowChecksum {

    /** FNV-1a's 64-bit offset basis: what a row's hash starts from. */
    public static final long SEED = 0xcbf29ce484222325L;
    private static final long FNV_PRIME = 0x100000001b3L;
    /** 2^64 divided by the golden ratio: spreads the order-dependent checksum's steps. */
    private static final long GOLDEN = 0x9E3779B97F4A7C15L;

    private long rows;
    private long ordered;
    private long unordered;

    /** Adds one row, whose own hash ({@link #fnv} from {@link #SEED}) is {@code rowHash}. */
    public void add(long rowHash) {
        long hash = mix(rowHash);
        ordered = mix(ordered * GOLDEN + hash);
        unordered += hash;
        rows++;
    }

    public long rows() {
        return rows;
    }

    /** Changes when the rows or their order change. */
    public long ordered() {
        return ordered;
    }

    /** Changes when the rows change, not when only their order does. */
    public long unordered() {
        return unordered;
    }

    /** One more unit (a byte, a char) into an FNV-1a hash. */
    public static long fnv(long hash, int unit) {
        return (hash ^ unit) * FNV_PRIME;
    }

    public static long fnv(long hash, CharSequence text) {
        for (int i = 0; i < text.length(); i++) {
            hash = fnv(hash, text.charAt(i));
        }
        return hash;
    }

    /** {@code length} bytes of {@code bytes} from {@code index}; its indexes are not moved. */
    public static long fnv(long hash, ByteBuf bytes, int index, int length) {
        for (int i = index; i < index + length; i++) {
            hash = fnv(hash, bytes.getByte(i) & 0xFF);
        }
        return hash;
    }

    /** MurmurHash3's finaliser: every bit of the input moves about half the output's. */
    public static long mix(long h) {
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb93fe53e8b87L;
        h ^= h >>> 33;
        return h;
    }
}
