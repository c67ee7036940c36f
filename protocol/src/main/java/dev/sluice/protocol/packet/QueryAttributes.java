package dev.sluice.protocol.packet;

import dev.sluice.protocol.Wire;
import io.netty.buffer.ByteBuf;

/**
 * The query attributes COM_QUERY carries before the query text when CLIENT_QUERY_ATTRIBUTES is
 * negotiated (MySQL 8.0.23+; MariaDB does not offer it).
 *
 * @param parameterSetCount always 1 in current servers
 * @param parameters null when {@code parameterCount} is 0
 */
public record QueryAttributes(long parameterCount, long parameterSetCount, BoundParameters parameters) {

    /** No attributes: what a client that negotiated the capability sends for a plain query. */
    public static final QueryAttributes NONE = new QueryAttributes(0, 1, null);

    static QueryAttributes read(ByteBuf in) {
        long count = Fields.intLenenc(in, "ComQuery.parameter_count");
        long sets = Fields.intLenenc(in, "ComQuery.parameter_set_count");
        BoundParameters parameters = count > 0 ? BoundParameters.read(in, count, true, false, "ComQuery") : null;
        return new QueryAttributes(count, sets, parameters);
    }

    void write(ByteBuf out) {
        Wire.writeIntLenenc(out, parameterCount);
        Wire.writeIntLenenc(out, parameterSetCount);
        if (parameters != null) {
            parameters.write(out);
        }
    }
}
