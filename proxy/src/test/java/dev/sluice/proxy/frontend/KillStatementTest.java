package dev.sluice.proxy.frontend;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class KillStatementTest {

    private static Optional<KillStatement> parse(String sql) {
        ByteBuf payload = Unpooled.buffer().writeByte(0x03).writeBytes(sql.getBytes(StandardCharsets.UTF_8));
        try {
            return KillStatement.parse(payload);
        } finally {
            payload.release();
        }
    }

    @Test
    void recognisesTheFormsClientsSend() {
        assertThat(parse("KILL QUERY 42")).contains(new KillStatement("QUERY", 42));
        assertThat(parse("kill 7")).contains(new KillStatement("", 7));
        assertThat(parse("  KILL  hard   CONNECTION 9 ; ")).contains(new KillStatement("hard CONNECTION", 9));
        assertThat(parse("KILL QUERY 42").orElseThrow().withId(1234)).isEqualTo("KILL QUERY 1234");
        assertThat(parse("KILL 7").orElseThrow().withId(8)).isEqualTo("KILL 8");
    }

    @Test
    void leavesEverythingElseAlone() {
        assertThat(parse("KILL QUERY ID 42")).isEmpty();
        assertThat(parse("KILL USER app")).isEmpty();
        assertThat(parse("SELECT 'KILL 1'")).isEmpty();
        assertThat(parse("KILL 1; DROP TABLE t")).isEmpty();
        assertThat(parse("KILL 99999999999999999999")).isEmpty();
        assertThat(parse("KILL " + "1".repeat(100))).isEmpty();
    }
}
