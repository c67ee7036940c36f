package dev.sluice.proxy.observe;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.protocol.Commands;
import dev.sluice.proxy.sql.Digest;
import dev.sluice.proxy.sql.SqlReaders;
import dev.sluice.proxy.sql.SqlMode;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class StatementContextTest {

    private static final SqlReaders READERS = new SqlReaders();

    private static final Charset CP1252 = Charset.forName("windows-1252");

    private static ByteBuf query(byte[] sql) {
        ByteBuf frame = Unpooled.buffer(5 + sql.length);
        frame.writeMediumLE(1 + sql.length).writeByte(0).writeByte(Commands.COM_QUERY).writeBytes(sql);
        return frame;
    }

    @Test
    void theDigestIsComputedOnFirstUseAndKeptUntilTheNextCommand() {
        StatementContext sql = new StatementContext(READERS, 45);
        sql.reset(query("SELECT 1".getBytes(StandardCharsets.UTF_8)));
        assertThat(sql.digested()).isFalse();
        assertThat(sql.digestText()).isEqualTo("SELECT ?");
        assertThat(sql.digested()).as("the text alone does not compute the hash").isFalse();
        assertThat(sql.digest()).isEqualTo(Digest.hash("SELECT ?"));
        assertThat(sql.digested()).isTrue();

        sql.reset(query("SELECT a FROM t".getBytes(StandardCharsets.UTF_8)));
        assertThat(sql.digested()).isFalse();
        assertThat(sql.digestText()).isEqualTo("SELECT a FROM t");
        assertThat(sql.digest()).isEqualTo(Digest.hash("SELECT a FROM t"));
    }

    @Test
    void theLoginCollationStandsInUntilTheSessionSetsItsCharacterSet() {
        byte[] latin1 = "SELECT café".getBytes(CP1252);
        StatementContext sql = new StatementContext(READERS, 8); // latin1_swedish_ci
        assertThat(sql.reset(query(latin1)).charset()).isEqualTo(CP1252);
        assertThat(sql.digestText()).isEqualTo("SELECT café");
        assertThat(sql.reset(query(latin1), null, null).charset()).isEqualTo(CP1252);
        assertThat(sql.reset(query(latin1), "utf8mb4", null).charset()).isEqualTo(StandardCharsets.UTF_8);
        assertThat(sql.digestText()).isEqualTo("SELECT caf\uFFFD");
        // A reset without variables keeps what the last one said.
        assertThat(sql.reset(query(latin1)).charset()).isEqualTo(StandardCharsets.UTF_8);
        assertThat(sql.reset(query(latin1), "latin1", null).charset()).isEqualTo(CP1252);
    }

    @Test
    void theSqlModeIsReadFromTheVariable() {
        StatementContext sql = new StatementContext(READERS, 45);
        ByteBuf frame = query("SELECT \"a\" FROM t".getBytes(StandardCharsets.UTF_8));
        assertThat(sql.reset(frame, null, "STRICT_TRANS_TABLES").sqlMode()).isEqualTo(SqlMode.DEFAULT);
        assertThat(sql.digestText()).isEqualTo("SELECT ? FROM t");
        assertThat(sql.reset(frame, null, "ANSI_QUOTES,NO_BACKSLASH_ESCAPES").sqlMode())
                .isEqualTo(new SqlMode(true, true));
        assertThat(sql.digestText()).isEqualTo("SELECT a FROM t");
        assertThat(sql.reset(frame, null, null).sqlMode()).isEqualTo(SqlMode.DEFAULT);
    }

    @Test
    void aDirectBufferGivesTheDigestAHeapOneGives() {
        byte[] text = "SELECT naïve FROM t WHERE id IN (1, 2, 3)".getBytes(StandardCharsets.UTF_8);
        ByteBuf heap = query(text);
        ByteBuf direct = Unpooled.directBuffer(heap.readableBytes()).writeBytes(heap, 0, heap.readableBytes());
        try {
            StatementContext sql = new StatementContext(READERS, 45);
            long fromHeap = sql.reset(heap).digest();
            String heapText = sql.digestText();
            assertThat(sql.reset(direct).digest()).isEqualTo(fromHeap);
            assertThat(sql.digestText()).isEqualTo(heapText).isEqualTo("SELECT naïve FROM t WHERE id IN (...)");
        } finally {
            direct.release();
        }
    }

    @Test
    void aStatementIsDigestedByItsFirst64KiB() {
        StringBuilder sql = new StringBuilder("SELECT a FROM t WHERE b = 1");
        while (sql.length() < Digest.MAX_INPUT_BYTES) {
            sql.append(" OR b = 1");
        }
        String prefix = sql.substring(0, Digest.MAX_INPUT_BYTES);
        sql.append(" OR c = 2");
        StatementContext context = new StatementContext(READERS, 45);
        context.reset(query(sql.toString().getBytes(StandardCharsets.US_ASCII)));
        assertThat(context.digest()).isEqualTo(new Digest().fingerprint(prefix));
    }

    @Test
    void noSqlIsEmpty() {
        StatementContext sql = new StatementContext(READERS, 45);
        assertThat(sql.reset(query(new byte[0])).isEmpty()).isTrue();
        assertThat(sql.reset(query(new byte[] {' '})).isEmpty()).isFalse();
    }
}
