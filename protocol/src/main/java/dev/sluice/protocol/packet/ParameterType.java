package dev.sluice.protocol.packet;

/**
 * One bound parameter's type in COM_STMT_EXECUTE or in COM_QUERY's query attributes: int&lt;2&gt;
 * whose low byte is a {@link ColumnTypes} value and whose high byte holds flags (0x80: unsigned).
 *
 * @param name the parameter (query attribute) name, sent only with CLIENT_QUERY_ATTRIBUTES; null
 *        when not on the wire
 */
public record ParameterType(int type, int flags, String name) {

    public static final int UNSIGNED = 0x80;

    public static ParameterType of(int type, boolean unsigned) {
        return new ParameterType(type, unsigned ? UNSIGNED : 0, null);
    }

    public boolean unsigned() {
        return (flags & UNSIGNED) != 0;
    }
}
