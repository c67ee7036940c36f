package dev.sluice.proxy.kill;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.protocol.Commands;
import dev.sluice.proxy.sql.KillStatement;
import dev.sluice.proxy.sql.SqlMode;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ProxyIdsTest {

    private static ByteBuf frame(int sequenceId, int command, String sql) {
        byte[] text = sql.getBytes(StandardCharsets.UTF_8);
        return Unpooled.directBuffer().writeMediumLE(1 + text.length).writeByte(sequenceId).writeByte(command)
                .writeBytes(text);
    }

    @Test
    void aStatementWithoutTheFunctionIsTheSameFrame() {
        ByteBuf frame = frame(0, Commands.COM_QUERY, "SELECT connection_ids FROM t WHERE 'CONNECTION_ID()' <> ''");
        try {
            assertThat(ProxyIds.withConnectionId(frame, ProxyIds.words(frame), 42, StandardCharsets.UTF_8, SqlMode.DEFAULT)).isSameAs(frame);
            assertThat(frame.refCnt()).isEqualTo(1);
        } finally {
            frame.release();
        }
    }

    @Test
    void aRewrittenStatementIsANewFrameWithTheSameCommandAndSequenceId() {
        ByteBuf frame = frame(3, Commands.COM_STMT_PREPARE, "SELECT Connection_Id()");
        ByteBuf rewritten = ProxyIds.withConnectionId(frame, ProxyIds.words(frame), 42, StandardCharsets.UTF_8, SqlMode.DEFAULT);
        try {
            assertThat(frame.refCnt()).isZero();
            String sql = "SELECT CAST(42 AS UNSIGNED) AS `Connection_Id()`";
            byte[] bytes = ByteBufUtil.getBytes(rewritten);
            // 3-byte length, sequence id 3, COM_STMT_PREPARE, then the text
            assertThat(bytes).startsWith((byte) (1 + sql.length()), (byte) 0, (byte) 0, (byte) 3,
                    (byte) Commands.COM_STMT_PREPARE);
            assertThat(new String(bytes, 5, bytes.length - 5, StandardCharsets.UTF_8)).isEqualTo(sql);
        } finally {
            rewritten.release();
        }
    }

    @Test
    void killIsFoundOnlyInTextThatSaysKill() {
        ByteBuf kill = frame(0, Commands.COM_QUERY, "/* cancel */ KILL QUERY 17");
        ByteBuf other = frame(0, Commands.COM_QUERY, "SELECT 17");
        try {
            assertThat(ProxyIds.kill(kill, ProxyIds.words(kill), StandardCharsets.UTF_8, SqlMode.DEFAULT))
                    .isEqualTo(new KillStatement(KillStatement.Form.THREAD, "", true, 17));
            assertThat(ProxyIds.kill(other, ProxyIds.words(other), StandardCharsets.UTF_8, SqlMode.DEFAULT)).isNull();
        } finally {
            kill.release();
            other.release();
        }
    }

    /** One pass tells both words apart, in any case, at any place, the last bytes included. */
    @Test
    void wordsFindsEachWordAnywhereInAnyCase() {
        String[][] cases = {
            {"SELECT 1", "0"},
            {"select count(*) from kills", "2"},
            {"SELECT cOnNeCtIoN_iD()", "1"},
            {"KILL QUERY 3 /* connection_id */", "3"},
            {"SELECT 'connection_i'", "0"},
            {"SELECT 1 FROM t WHERE skill", "2"},
        };
        for (String[] c : cases) {
            ByteBuf frame = frame(0, Commands.COM_QUERY, c[0]);
            try {
                assertThat(ProxyIds.words(frame)).as(c[0]).isEqualTo(Integer.parseInt(c[1]));
            } finally {
                frame.release();
            }
        }
    }
}
