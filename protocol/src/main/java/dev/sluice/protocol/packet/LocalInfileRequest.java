package dev.sluice.protocol.packet;

import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;

/**
 * LOCAL INFILE Request (https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_com_query_response_local_infile_request.html):
 * 0xFB and the file name the client should send, as the first packet of a COM_QUERY response.
 */
public record LocalInfileRequest(String filename) implements ServerPacket {

    public static final int HEADER = 0xFB;

    public static LocalInfileRequest decode(ByteBuf payload) {
        Fields.header(payload, HEADER, "LocalInfileRequest");
        return new LocalInfileRequest(Fields.stringEof(payload));
    }

    @Override
    public void encode(ByteBuf out) {
        out.writeByte(HEADER);
        out.writeCharSequence(filename, StandardCharsets.UTF_8);
    }
}
