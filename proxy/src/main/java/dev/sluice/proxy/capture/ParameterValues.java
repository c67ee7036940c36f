package dev.sluice.proxy.capture;

import dev.sluice.protocol.ProtocolException;
import dev.sluice.protocol.packet.BinaryDateTime;
import dev.sluice.protocol.packet.BinaryTime;
import dev.sluice.protocol.packet.BoundParameters;
import dev.sluice.protocol.packet.ColumnTypes;
import dev.sluice.protocol.packet.ComStmtExecute;
import dev.sluice.protocol.packet.ParameterType;
import io.netty.buffer.Unpooled;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;

/**
 * The values of a COM_STMT_EXECUTE, decoded on the writer thread, and written as JSON (for
 * replay: each value typed so that it binds back as what it was) or as SQL literals (for the
 * slow log, which shows executes with their values in place, as MySQL's does).
 *
 * <p>JSON: integers and floating-point numbers as numbers, text as strings, and as objects the
 * values a JSON number or string would change: {@code {"decimal":"1.50"}}, {@code {"date":..}},
 * {@code {"datetime":"2025-06-01 10:00:00.000000"}}, {@code {"time":"-12:00:00.000000"}},
 * {@code {"base64":..}} for bytes that are not UTF-8 text or were sent as a binary type.
 */
final class ParameterValues {

    private final CharsetDecoder utf8 = StandardCharsets.UTF_8.newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);

    /** The decoded values, or a reason they cannot be. */
    record Decoded(List<Object> values, List<ParameterType> types, String problem) {
    }

    Decoded decode(CapturedStatement statement) {
        if (statement.payload == null) {
            return new Decoded(null, null, "capture does not know this prepared statement (prepared before capture"
                    + " started)");
        }
        if (statement.paramCount == 0) {
            return new Decoded(List.of(), List.of(), null);
        }
        if (statement.longData) {
            return new Decoded(null, null, "values sent as long data are not captured");
        }
        if (statement.truncated) {
            return new Decoded(null, null, "the command was longer than capture keeps");
        }
        try {
            ComStmtExecute execute = ComStmtExecute.decode(Unpooled.wrappedBuffer(statement.payload), 0,
                    statement.paramCount);
            BoundParameters parameters = execute.parameters();
            if (parameters.newParamsBindFlag() != 0) {
                return new Decoded(parameters.decodeValues(), parameters.types(), null);
            }
            if (statement.types == null) {
                return new Decoded(null, null, "parameter types were sent before capture saw the statement");
            }
            return new Decoded(parameters.decodeValues(statement.types), statement.types, null);
        } catch (ProtocolException | IllegalArgumentException e) {
            return new Decoded(null, null, "unreadable parameters: " + e.getMessage());
        }
    }

    void appendJson(StringBuilder out, Object value, ParameterType type) {
        switch (value) {
            case null -> out.append("null");
            case Long l -> out.append(l.longValue());
            case Float f -> out.append(f.floatValue());
            case Double d -> out.append(d.doubleValue());
            case BigDecimal d -> tagged(out, "decimal", d.toPlainString());
            case BinaryDateTime t -> tagged(out, type.type() == ColumnTypes.DATE ? "date" : "datetime", dateTime(t, type));
            case BinaryTime t -> tagged(out, "time", time(t));
            case byte[] bytes -> {
                String text = isText(type) ? text(bytes) : null;
                if (text != null) {
                    Json.string(out, text);
                } else {
                    tagged(out, "base64", Base64.getEncoder().encodeToString(bytes));
                }
            }
            default -> out.append(value);
        }
    }

    void appendSql(StringBuilder out, Object value, ParameterType type) {
        switch (value) {
            case null -> out.append("NULL");
            case BigDecimal d -> out.append(d.toPlainString());
            case BinaryDateTime t -> out.append('\'').append(dateTime(t, type)).append('\'');
            case BinaryTime t -> out.append('\'').append(time(t)).append('\'');
            case byte[] bytes -> {
                String text = isText(type) ? text(bytes) : null;
                if (text != null) {
                    quoted(out, text);
                } else if (bytes.length == 0) {
                    out.append("''");
                } else {
                    out.append("0x");
                    for (byte b : bytes) {
                        out.append(Character.forDigit((b >> 4) & 15, 16)).append(Character.forDigit(b & 15, 16));
                    }
                }
            }
            default -> out.append(value);
        }
    }

    private static void tagged(StringBuilder out, String tag, String value) {
        out.append("{\"").append(tag).append("\":");
        Json.string(out, value);
        out.append('}');
    }

    private static boolean isText(ParameterType type) {
        return switch (type.type()) {
            case ColumnTypes.VARCHAR, ColumnTypes.VAR_STRING, ColumnTypes.STRING, ColumnTypes.ENUM, ColumnTypes.SET,
                 ColumnTypes.JSON -> true;
            default -> false;
        };
    }

    /** The bytes as UTF-8 text, or null when they are not. */
    String text(byte[] bytes) {
        try {
            return utf8.decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }

    private static void quoted(StringBuilder out, String text) {
        out.append('\'');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '\'' -> out.append("\\'");
                case '\\' -> out.append("\\\\");
                case '\0' -> out.append("\\0");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case 0x1A -> out.append("\\Z");
                default -> out.append(c);
            }
        }
        out.append('\'');
    }

    private static String dateTime(BinaryDateTime t, ParameterType type) {
        String date = String.format("%04d-%02d-%02d", t.year(), t.month(), t.day());
        if (type.type() == ColumnTypes.DATE) {
            return date;
        }
        return date + String.format(" %02d:%02d:%02d.%06d", t.hour(), t.minute(), t.second(), t.microsecond());
    }

    private static String time(BinaryTime t) {
        return String.format("%s%02d:%02d:%02d.%06d", t.negative() ? "-" : "", t.days() * 24 + t.hour(), t.minute(),
                t.second(), t.microsecond());
    }
}
