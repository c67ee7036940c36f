package dev.sluice.proxy.kill;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.protocol.Commands;
import dev.sluice.proxy.sql.KillStatement;
import dev.sluice.proxy.sql.SqlMode;
import io.netty.buffer.ByteBuf;
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
    void killIsFoundOnlyInTextThatSaysKill() {
        ByteBuf kill = frame(0, Commands.COM_QUERY, "/* cancel */ KILL QUERY 17");
        ByteBuf other = frame(0, Commands.COM_QUERY, "SELECT 17");
        try {
            assertThat(ProxyIds.kill(kill, StandardCharsets.UTF_8, SqlMode.DEFAULT))
                    .isEqualTo(new KillStatement(KillStatement.Form.THREAD, "", true, 17));
            assertThat(ProxyIds.kill(other, StandardCharsets.UTF_8, SqlMode.DEFAULT)).isNull();
        } finally {
            kill.release();
            other.release();
        }
    }
}
