package dev.sluice.protocol.packet;

import dev.sluice.protocol.ProtocolException;
import dev.sluice.protocol.Wire;
import io.netty.buffer.ByteBuf;

/**
 * MariaDB's progress report (https://mariadb.com/docs/server/reference/clientserver-protocol/4-server-response-packets/err_packet):
 * an ERR-shaped packet with error code 0xFFFF, sent only to clients that negotiated
 * MARIADB_CLIENT_PROGRESS, in the middle of a response (LOAD DATA, ALTER TABLE). It is not an
 * error and does not end the response; it does take a sequence id.
 *
 * <p>Layout after the 3-byte header, from the server's {@code thd_send_progress}: the number of
 * strings that follow (1), stage, max stage, progress as int&lt;3&gt; in thousandths of a percent
 * (0..100000), and the stage name as string&lt;lenenc&gt;.
 */
public record ProgressReport(int stringCount, int stage, int maxStage, int progress, String stageName)
        implements ServerPacket {

    public static final int HEADER = 0xFF;
    public static final int ERROR_CODE = 0xFFFF;

    /** True when {@code payload} (not consumed) starts with 0xFF 0xFF 0xFF: a progress report, not an ERR. */
    public static boolean matches(ByteBuf payload) {
        int at = payload.readerIndex();
        return payload.readableBytes() >= 3 && payload.getUnsignedByte(at) == HEADER
                && payload.getUnsignedShortLE(at + 1) == ERROR_CODE;
    }

    public static ProgressReport decode(ByteBuf payload) {
        Fields.header(payload, HEADER, "ProgressReport");
        int code = Fields.int2(payload, "ProgressReport.error_code");
        if (code != ERROR_CODE) {
            throw new ProtocolException(String.format(
                    "ProgressReport.error_code: %d (expected: 0xffff; other codes are ERR packets)", code));
        }
        int strings = Fields.int1(payload, "ProgressReport.string_count");
        int stage = Fields.int1(payload, "ProgressReport.stage");
        int maxStage = Fields.int1(payload, "ProgressReport.max_stage");
        int progress = Fields.int3(payload, "ProgressReport.progress");
        String stageName = Fields.stringLenenc(payload, "ProgressReport.stage_name");
        Fields.end(payload, "ProgressReport");
        return new ProgressReport(strings, stage, maxStage, progress, stageName);
    }

    @Override
    public void encode(ByteBuf out) {
        out.writeByte(HEADER);
        out.writeShortLE(ERROR_CODE);
        out.writeByte(stringCount);
        out.writeByte(stage);
        out.writeByte(maxStage);
        out.writeMediumLE(progress);
        Wire.writeStringLenenc(out, stageName);
    }

    /** Progress of the current stage in percent. */
    public double percent() {
        return progress / 1000.0;
    }
}
