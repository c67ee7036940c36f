package dev.sluice.proxy.memory;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * What a burst of sessions does to the old generation, in a JVM of its own: each round keeps
 * {@code ROUND_BYTES} alive through several young collections (so they are promoted), then drops
 * them, and pauses as between bursts. Prints the old generation's highest use at the end of a
 * round, its committed size at the end, and the pacer's collections.
 *
 * <p>Usage: {@code java -XX:+UseSerialGC ... PromotedChurn paced|unpaced}
 */
public final class PromotedChurn {

    static final int ROUNDS = 10;
    static final int ROUND_BYTES = 12 << 20;
    private static final int OBJECT_BYTES = 1024;
    private static final long BETWEEN_ROUNDS_NANOS = 100_000_000;

    public static void main(String[] args) {
        OldGenerationPacer pacer = args[0].equals("paced") ? OldGenerationPacer.install().orElseThrow() : null;
        MemoryPoolMXBean old = ManagementFactory.getMemoryPoolMXBeans().stream()
                .filter(p -> p.getName().equals("Tenured Gen")).findFirst().orElseThrow();
        long peak = 0;
        long sink = 0;
        for (int round = 0; round < ROUNDS; round++) {
            List<byte[]> sessions = new ArrayList<>();
            for (int i = 0; i < ROUND_BYTES / OBJECT_BYTES; i++) {
                sessions.add(new byte[OBJECT_BYTES]);
                // Short-lived garbage between them, as a session's statements make: young collections
                // run while the round's objects are alive, and promote them.
                for (int g = 0; g < 4; g++) {
                    sink += new byte[OBJECT_BYTES].length;
                }
            }
            sink += sessions.size();
            peak = Math.max(peak, old.getUsage().getUsed());
            // Bursts of sessions come seconds apart; the pacer's collection runs on the JVM's
            // notification thread, after the young collection that crossed its threshold.
            LockSupport.parkNanos(BETWEEN_ROUNDS_NANOS);
        }
        System.out.println("old_peak=" + peak + " old_committed=" + old.getUsage().getCommitted()
                + " collections=" + (pacer == null ? 0 : pacer.collections()) + " sink=" + sink);
    }
}
