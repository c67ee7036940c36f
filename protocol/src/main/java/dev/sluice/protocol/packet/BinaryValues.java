package dev.sluice.protocol.packet;

import dev.sluice.protocol.ProtocolException;
import dev.sluice.protocol.Wire;
import io.netty.buffer.ByteBuf;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;

/**
 * Values in the binary protocol
 * (https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_binary_resultset.html#sect_protocol_binary_resultset_row_value),
 * as COM_STMT_EXECUTE parameters and query attributes carry them.
 */
public final class BinaryValues {

    private BinaryValues() {
    }

    /**
     * Reads one value: Long for the integer types (BigInteger for an unsigned LONGLONG above
     * Long.MAX_VALUE), Float, Double, BigDecimal for DECIMAL/NEWDECIMAL, {@link BinaryDateTime},
     * {@link BinaryTime}, null for NULL, and byte[] for the string, blob, BIT, JSON and GEOMETRY types.
     */
    public static Object read(ByteBuf in, int type, boolean unsigned) {
        String where = "binary value of type " + ColumnTypes.name(type);
        return switch (type) {
            case ColumnTypes.NULL -> null;
            case ColumnTypes.TINY -> {
                int v = Fields.int1(in, where);
                yield (long) (unsigned ? v : (byte) v);
            }
            case ColumnTypes.SHORT, ColumnTypes.YEAR -> {
                int v = Fields.int2(in, where);
                yield (long) (unsigned ? v : (short) v);
            }
            case ColumnTypes.LONG, ColumnTypes.INT24 -> {
                long v = Fields.int4(in, where);
                yield unsigned ? v : (long) (int) v;
            }
            case ColumnTypes.LONGLONG -> {
                long v = int8(in, where);
                yield unsigned && v < 0 ? new BigInteger(Long.toUnsignedString(v)) : (Object) v;
            }
            case ColumnTypes.FLOAT -> Float.intBitsToFloat((int) Fields.int4(in, where));
            case ColumnTypes.DOUBLE -> Double.longBitsToDouble(int8(in, where));
            case ColumnTypes.DATE, ColumnTypes.DATETIME, ColumnTypes.TIMESTAMP, ColumnTypes.NEWDATE ->
                    dateTime(in, where);
            case ColumnTypes.TIME -> time(in, where);
            case ColumnTypes.DECIMAL, ColumnTypes.NEWDECIMAL -> decimal(Fields.bytesLenenc(in, where), where);
            default -> {
                requireLenencType(type, where);
                yield Fields.bytesLenenc(in, where);
            }
        };
    }

    /** Skips one value without building it, for finding where the values end. */
    public static void skip(ByteBuf in, int type) {
        String where = "binary value of type " + ColumnTypes.name(type);
        int length = switch (type) {
            case ColumnTypes.NULL -> 0;
            case ColumnTypes.TINY -> 1;
            case ColumnTypes.SHORT, ColumnTypes.YEAR -> 2;
            case ColumnTypes.LONG, ColumnTypes.INT24, ColumnTypes.FLOAT -> 4;
            case ColumnTypes.LONGLONG, ColumnTypes.DOUBLE -> 8;
            case ColumnTypes.DATE, ColumnTypes.DATETIME, ColumnTypes.TIMESTAMP, ColumnTypes.NEWDATE,
                 ColumnTypes.TIME -> Fields.int1(in, where + " length");
            default -> {
                requireLenencType(type, where);
                long lenenc = Fields.intLenenc(in, where + " length");
                if (lenenc < 0 || lenenc > in.readableBytes()) {
                    throw new ProtocolException(where + ": length " + lenenc + " (expected: <= "
                            + in.readableBytes() + " remaining bytes)");
                }
                yield (int) lenenc;
            }
        };
        Fields.skip(in, length, where);
    }

    /** The types whose binary value is a string&lt;lenenc&gt;. */
    private static void requireLenencType(int type, String where) {
        switch (type) {
            case ColumnTypes.DECIMAL, ColumnTypes.NEWDECIMAL, ColumnTypes.VARCHAR, ColumnTypes.BIT, ColumnTypes.JSON,
                 ColumnTypes.ENUM, ColumnTypes.SET, ColumnTypes.TINY_BLOB, ColumnTypes.MEDIUM_BLOB,
                 ColumnTypes.LONG_BLOB, ColumnTypes.BLOB, ColumnTypes.VAR_STRING, ColumnTypes.STRING,
                 ColumnTypes.GEOMETRY, ColumnTypes.VECTOR -> { }
            default -> throw new ProtocolException(where + ": unknown type " + type
                    + " (expected: an enum_field_types value)");
        }
    }

    private static long int8(ByteBuf in, String where) {
        try {
            return Wire.readInt8(in);
        } catch (ProtocolException e) {
            throw e.in(where);
        }
    }

    private static BinaryDateTime dateTime(ByteBuf in, String where) {
        int length = Fields.int1(in, where + " length");
        if (length != 0 && length != 4 && length != 7 && length != 11) {
            throw new ProtocolException(where + ": length " + length + " (expected: 0, 4, 7 or 11)");
        }
        if (length == 0) {
            return BinaryDateTime.ZERO;
        }
        int year = Fields.int2(in, where);
        int month = Fields.int1(in, where);
        int day = Fields.int1(in, where);
        int hour = 0;
        int minute = 0;
        int second = 0;
        int micros = 0;
        if (length >= 7) {
            hour = Fields.int1(in, where);
            minute = Fields.int1(in, where);
            second = Fields.int1(in, where);
        }
        if (length == 11) {
            micros = (int) Fields.int4(in, where);
        }
        return new BinaryDateTime(year, month, day, hour, minute, second, micros);
    }

    private static BinaryTime time(ByteBuf in, String where) {
        int length = Fields.int1(in, where + " length");
        if (length != 0 && length != 8 && length != 12) {
            throw new ProtocolException(where + ": length " + length + " (expected: 0, 8 or 12)");
        }
        if (length == 0) {
            return BinaryTime.ZERO;
        }
        boolean negative = Fields.int1(in, where) == 1;
        long days = Fields.int4(in, where);
        int hour = Fields.int1(in, where);
        int minute = Fields.int1(in, where);
        int second = Fields.int1(in, where);
        int micros = length == 12 ? (int) Fields.int4(in, where) : 0;
        return new BinaryTime(negative, days, hour, minute, second, micros);
    }

    private static BigDecimal decimal(byte[] text, String where) {
        try {
            return new BigDecimal(new String(text, StandardCharsets.US_ASCII));
        } catch (NumberFormatException e) {
            throw new ProtocolException(where + ": '" + new String(text, StandardCharsets.US_ASCII)
                    + "' (expected: a decimal number)", e);
        }
    }
}
