package dev.sluice.slap;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * Binds captured values back as what they were: numbers as numbers, text as text, and the tagged
 * objects the capture writes ({@code decimal}, {@code date}, {@code datetime}, {@code time},
 * {@code base64}) as BigDecimal, dates, text and bytes. A zero date and TIME values outside a day
 * go as text, which the server converts as it would have the original.
 */
final class ReplayParams {

    private static final DateTimeFormatter DATETIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss[.SSSSSS]");

    private ReplayParams() {
    }

    static void bind(PreparedStatement statement, List<Object> values) throws SQLException {
        for (int i = 0; i < values.size(); i++) {
            bind(statement, i + 1, values.get(i));
        }
    }

    private static void bind(PreparedStatement statement, int index, Object value) throws SQLException {
        switch (value) {
            case null -> statement.setNull(index, Types.NULL);
            case Long l -> statement.setLong(index, l);
            case BigInteger b -> statement.setBigDecimal(index, new BigDecimal(b));
            case Double d -> statement.setDouble(index, d);
            case String s -> statement.setString(index, s);
            case Boolean b -> statement.setBoolean(index, b);
            case Map<?, ?> tagged when tagged.size() == 1 -> bindTagged(statement, index, tagged);
            default -> throw new SQLException("parameter " + index + ": " + value
                    + " is not a captured value (expected a number, text, null or one of decimal, date, datetime,"
                    + " time, base64)", "HY000");
        }
    }

    private static void bindTagged(PreparedStatement statement, int index, Map<?, ?> tagged) throws SQLException {
        Map.Entry<?, ?> entry = tagged.entrySet().iterator().next();
        String text = String.valueOf(entry.getValue());
        switch (String.valueOf(entry.getKey())) {
            case "decimal" -> statement.setBigDecimal(index, new BigDecimal(text));
            case "base64" -> statement.setBytes(index, Base64.getDecoder().decode(text));
            case "datetime" -> {
                try {
                    statement.setObject(index, LocalDateTime.parse(text, DATETIME));
                } catch (DateTimeParseException e) {
                    statement.setString(index, text);
                }
            }
            case "date" -> {
                try {
                    statement.setObject(index, LocalDate.parse(text));
                } catch (DateTimeParseException e) {
                    statement.setString(index, text);
                }
            }
            case "time" -> statement.setString(index, text);
            default -> throw new SQLException("parameter " + index + ": unknown tag " + entry.getKey()
                    + " (expected: decimal, date, datetime, time or base64)", "HY000");
        }
    }
}
