package dev.sluice.protocol.packet;

import java.time.Duration;

/** A TIME in the binary protocol: a signed interval of days, hours, minutes, seconds, microseconds. */
public record BinaryTime(boolean negative, long days, int hour, int minute, int second, int microsecond) {

    public static final BinaryTime ZERO = new BinaryTime(false, 0, 0, 0, 0, 0);

    public Duration toDuration() {
        Duration d = Duration.ofDays(days).plusHours(hour).plusMinutes(minute).plusSeconds(second)
                .plusNanos(microsecond * 1000L);
        return negative ? d.negated() : d;
    }
}
