package dev.sluice.protocol.packet;

import java.time.LocalDate;
import java.time.LocalDateTime;

/**
 * A DATE, DATETIME or TIMESTAMP in the binary protocol. Kept as fields because MySQL's zero date
 * (0000-00-00, sent as length 0) has no java.time equivalent.
 */
public record BinaryDateTime(int year, int month, int day, int hour, int minute, int second, int microsecond) {

    public static final BinaryDateTime ZERO = new BinaryDateTime(0, 0, 0, 0, 0, 0, 0);

    /** Fails with java.time's DateTimeException for the zero date and other invalid dates. */
    public LocalDateTime toLocalDateTime() {
        return LocalDateTime.of(year, month, day, hour, minute, second, microsecond * 1000);
    }

    public LocalDate toLocalDate() {
        return LocalDate.of(year, month, day);
    }
}
