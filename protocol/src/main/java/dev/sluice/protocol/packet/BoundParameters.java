package dev.sluice.protocol.packet;

import dev.sluice.protocol.ProtocolException;
import dev.sluice.protocol.Wire;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The parameter block of COM_STMT_EXECUTE and of COM_QUERY's query attributes: NULL bitmap,
 * new-params-bound flag, the types (and names, with CLIENT_QUERY_ATTRIBUTES) when the flag is set,
 * then the non-NULL values in the binary protocol, kept as raw bytes. A statement executed again
 * without rebinding sends no types; its values are read with the types of an earlier execute.
 *
 * @param count the number of parameters the bitmap and values cover
 * @param types empty when {@code newParamsBindFlag} is 0
 */
public record BoundParameters(int count, byte[] nullBitmap, int newParamsBindFlag, List<ParameterType> types,
                              byte[] values) {

    public BoundParameters {
        types = List.copyOf(types);
        if (nullBitmap.length != (count + 7) / 8) {
            throw new IllegalArgumentException("null bitmap of " + nullBitmap.length + " bytes for " + count
                    + " parameters (expected: " + (count + 7) / 8 + ")");
        }
    }

    /**
     * Reads the block for {@code count} parameters. With {@code valuesToEnd} the values run to the
     * end of the payload (COM_STMT_EXECUTE); otherwise they are delimited by walking them with their
     * types (COM_QUERY, where the query text follows).
     */
    static BoundParameters read(ByteBuf in, long count, boolean withNames, boolean valuesToEnd, String packet) {
        if (count < 0 || count > (long) in.readableBytes() * 8) {
            throw new ProtocolException(packet + ".parameter_count: " + Long.toUnsignedString(count)
                    + " (expected: a NULL bitmap that fits in the " + in.readableBytes() + " remaining bytes)");
        }
        int n = (int) count;
        byte[] nullBitmap = Fields.bytesFix(in, (n + 7) / 8, packet + ".null_bitmap");
        int bindFlag = Fields.int1(in, packet + ".new_params_bind_flag");
        List<ParameterType> types = new ArrayList<>();
        if (bindFlag != 0) {
            Fields.count(in, n, 2, packet + ".parameter_type");
            for (int i = 0; i < n; i++) {
                int type = Fields.int1(in, packet + ".parameter_type");
                int flags = Fields.int1(in, packet + ".parameter_type");
                String name = withNames ? Fields.stringLenenc(in, packet + ".parameter_name") : null;
                types.add(new ParameterType(type, flags, name));
            }
        }
        byte[] values;
        if (valuesToEnd) {
            values = Fields.bytesEof(in);
        } else {
            if (bindFlag == 0) {
                throw new ProtocolException(packet + ".new_params_bind_flag: 0 (expected: 1, the values cannot be "
                        + "delimited from the query without their types)");
            }
            int start = in.readerIndex();
            for (int i = 0; i < n; i++) {
                if (!isNull(nullBitmap, i)) {
                    BinaryValues.skip(in, types.get(i).type());
                }
            }
            values = new byte[in.readerIndex() - start];
            in.getBytes(start, values);
        }
        return new BoundParameters(n, nullBitmap, bindFlag, types, values);
    }

    void write(ByteBuf out) {
        out.writeBytes(nullBitmap);
        out.writeByte(newParamsBindFlag);
        for (ParameterType type : types) {
            out.writeByte(type.type());
            out.writeByte(type.flags());
            if (type.name() != null) {
                Wire.writeStringLenenc(out, type.name());
            }
        }
        out.writeBytes(values);
    }

    public boolean isNull(int index) {
        return isNull(nullBitmap, index);
    }

    /** The values decoded with the types this block carries (new-params-bound must be set). */
    public List<Object> decodeValues() {
        if (newParamsBindFlag == 0) {
            throw new IllegalStateException("no types in this block (new_params_bind_flag 0): "
                    + "pass the types of the execute that bound them");
        }
        return decodeValues(types);
    }

    /** The values decoded with {@code typesInEffect} (from the last execute that bound types). */
    public List<Object> decodeValues(List<ParameterType> typesInEffect) {
        if (typesInEffect.size() != count) {
            throw new IllegalArgumentException(typesInEffect.size() + " types for " + count + " parameters");
        }
        ByteBuf in = Unpooled.wrappedBuffer(values);
        List<Object> decoded = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            ParameterType type = typesInEffect.get(i);
            decoded.add(isNull(i) ? null : BinaryValues.read(in, type.type(), type.unsigned()));
        }
        Fields.end(in, "parameter values");
        return Collections.unmodifiableList(decoded);
    }

    private static boolean isNull(byte[] bitmap, int index) {
        return (bitmap[index >> 3] & (1 << (index & 7))) != 0;
    }
}
