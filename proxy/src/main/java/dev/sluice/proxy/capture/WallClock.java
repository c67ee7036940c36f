package dev.sluice.proxy.capture;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

/**
 * Turns the event loops' {@link System#nanoTime()} readings into wall-clock microseconds (the
 * event loop reads no wall clock), and formats them. The anchor is taken again every minute so the
 * two clocks cannot drift apart. Writer thread only.
 */
final class WallClock {

    private static final long REANCHOR_NANOS = 60_000_000_000L;

    private long anchorNanos;
    private long anchorMicros;
    private long cachedSecond = Long.MIN_VALUE;
    private String cachedIso;
    private String cachedMariaDb;

    WallClock() {
        anchor();
    }

    private void anchor() {
        Instant now = Instant.now();
        anchorNanos = System.nanoTime();
        anchorMicros = now.getEpochSecond() * 1_000_000 + now.getNano() / 1000;
    }

    /** Epoch microseconds of a {@code System.nanoTime()} reading taken a short while ago. */
    long micros(long nanoTime) {
        if (System.nanoTime() - anchorNanos > REANCHOR_NANOS) {
            anchor();
        }
        return anchorMicros + Math.floorDiv(nanoTime - anchorNanos, 1000);
    }

    /** ISO 8601 in UTC with microseconds: {@code 2025-06-01T10:00:00.123456Z}. */
    void appendIso(StringBuilder out, long epochMicros) {
        cache(Math.floorDiv(epochMicros, 1_000_000));
        int fraction = Math.floorMod(epochMicros, 1_000_000);
        out.append(cachedIso).append('.');
        for (int digits = 100_000; digits > 0; digits /= 10) {
            out.append((char) ('0' + fraction / digits % 10));
        }
        out.append('Z');
    }

    /** MariaDB's slow log time, {@code 250601 10:00:00} (UTC here). */
    String mariaDb(long epochMicros) {
        cache(Math.floorDiv(epochMicros, 1_000_000));
        return cachedMariaDb;
    }

    private void cache(long second) {
        if (second == cachedSecond) {
            return;
        }
        LocalDateTime t = LocalDateTime.ofEpochSecond(second, 0, ZoneOffset.UTC);
        cachedSecond = second;
        cachedIso = String.format("%04d-%02d-%02dT%02d:%02d:%02d", t.getYear(), t.getMonthValue(), t.getDayOfMonth(),
                t.getHour(), t.getMinute(), t.getSecond());
        cachedMariaDb = String.format("%02d%02d%02d %2d:%02d:%02d", t.getYear() % 100, t.getMonthValue(),
                t.getDayOfMonth(), t.getHour(), t.getMinute(), t.getSecond());
    }
}
