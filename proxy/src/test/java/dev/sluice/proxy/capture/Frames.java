package dev.sluice.proxy.capture;

import dev.sluice.protocol.Commands;
import dev.sluice.protocol.packet.ColumnTypes;
import dev.sluice.protocol.response.Response;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Client command frames (4-byte header, then the payload) and responses as the proxy hands them
 * to observers. Frames wrap arrays (nothing to release).
 */
final class Frames {

    private Frames() {
    }

    static ByteBuf frame(int command, byte[] argument) {
        int length = 1 + argument.length;
        byte[] frame = new byte[4 + length];
        frame[0] = (byte) length;
        frame[1] = (byte) (length >> 8);
        frame[2] = (byte) (length >> 16);
        frame[3] = 0; // sequence id
        frame[4] = (byte) command;
        System.arraycopy(argument, 0, frame, 5, argument.length);
        return Unpooled.wrappedBuffer(frame);
    }

    static ByteBuf query(String sql) {
        return frame(Commands.COM_QUERY, sql.getBytes(StandardCharsets.UTF_8));
    }

    static ByteBuf prepare(String sql) {
        return frame(Commands.COM_STMT_PREPARE, sql.getBytes(StandardCharsets.UTF_8));
    }

    static ByteBuf close(long id) {
        return frame(Commands.COM_STMT_CLOSE, int4(id));
    }

    /**
     * COM_STMT_EXECUTE of a BIGINT and a string parameter: statement_id(4) flags(1)
     * iteration_count(4) null_bitmap(1) new_params_bound(1) [types 2 x 2] values.
     */
    static ByteBuf execute(long id, boolean sendTypes, Long number, String text) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(int4(id));
        out.write(0);                 // flags: no cursor
        out.writeBytes(int4(1));      // iteration count
        int nulls = (number == null ? 1 : 0) | (text == null ? 2 : 0);
        out.write(nulls);             // NULL bitmap for 2 parameters
        out.write(sendTypes ? 1 : 0); // new-params-bound flag
        if (sendTypes) {
            out.write(ColumnTypes.LONGLONG);
            out.write(0);
            out.write(ColumnTypes.VAR_STRING);
            out.write(0);
        }
        if (number != null) {
            for (int i = 0; i < 8; i++) {
                out.write((int) (number >> (8 * i)));
            }
        }
        if (text != null) {
            byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
            out.write(bytes.length);  // lenenc length below 251
            out.writeBytes(bytes);
        }
        return frame(Commands.COM_STMT_EXECUTE, out.toByteArray());
    }

    static byte[] int4(long value) {
        return new byte[] {(byte) value, (byte) (value >> 8), (byte) (value >> 16), (byte) (value >> 24)};
    }

    static Response ok(long affected) {
        return new Response(Response.Kind.OK, 2, 0, null, null, 0, 0, 0, affected, 0, 0, -1, 0, false, false, 100);
    }

    static Response rows(long rows) {
        return new Response(Response.Kind.RESULT_SET, 2, 0, null, null, 1, 1, rows, 0, 0, 0, -1, 0, false, false, 100);
    }

    static Response prepareOk(long id, int params) {
        return new Response(Response.Kind.PREPARE_OK, -1, 0, null, null, 0, 1, 0, 0, 0, 0, id, params, false, false, 100);
    }

    static Response error(int code) {
        return new Response(Response.Kind.ERR, -1, code, "HY000", "failed", 0, 0, 0, 0, 0, 0, -1, 0, false, false, 100);
    }
}
