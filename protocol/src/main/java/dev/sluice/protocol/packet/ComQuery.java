package dev.sluice.protocol.packet;

import dev.sluice.protocol.Capabilities;
import dev.sluice.protocol.Commands;
import io.netty.buffer.ByteBuf;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;

/**
 * COM_QUERY (https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_com_query.html). The
 * query is kept as the bytes sent: they are in the connection's character set (mariadb-slap uses
 * latin1), and some clients send a trailing NUL inside the payload (mariadb-slap's generated
 * statements), which must be forwarded as is.
 *
 * @param attributes null unless CLIENT_QUERY_ATTRIBUTES is negotiated
 */
public record ComQuery(QueryAttributes attributes, byte[] query) implements ClientCommand {

    public static ComQuery of(String sql) {
        return new ComQuery(null, sql.getBytes(StandardCharsets.UTF_8));
    }

    public static ComQuery decode(ByteBuf payload, long capabilities) {
        Fields.header(payload, Commands.COM_QUERY, "ComQuery");
        QueryAttributes attributes = null;
        if (Capabilities.has(capabilities, Capabilities.CLIENT_QUERY_ATTRIBUTES)) {
            attributes = QueryAttributes.read(payload);
        }
        return new ComQuery(attributes, Fields.bytesEof(payload));
    }

    @Override
    public int command() {
        return Commands.COM_QUERY;
    }

    @Override
    public void encode(ByteBuf out) {
        out.writeByte(Commands.COM_QUERY);
        if (attributes != null) {
            attributes.write(out);
        }
        out.writeBytes(query);
    }

    /** The query text as UTF-8 (a trailing NUL, if sent, is part of it). */
    public String sql() {
        return sql(StandardCharsets.UTF_8);
    }

    public String sql(Charset charset) {
        return new String(query, charset);
    }
}
