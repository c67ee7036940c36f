package dev.sluice.proxy.session;

import static dev.sluice.proxy.testing.ServerPackets.command;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.protocol.Commands;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SchemaWordsTest {

    private static boolean query(String sql) {
        ByteBuf frame = Unpooled.wrappedBuffer(command(Commands.COM_QUERY, sql));
        try {
            return SchemaWords.mayChangeSchema(Commands.COM_QUERY, frame);
        } finally {
            frame.release();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"USE db", "use`db`", "  Use db", "SELECT 1; USE db", "/*!USE db*/",
        "EXECUTE IMMEDIATE 'use db'", "DROP DATABASE db", "drop schema if exists db", "USE"})
    void statementsThatMaySelectOrDropASchemaCount(String sql) {
        assertThat(query(sql)).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"SELECT 1", "SELECT user FROM t", "SELECT used, `reuse`, drops FROM t", "UPDATE t SET us = 1",
        "INSERT INTO dropped VALUES (1)", "SELECT $use, use_1 FROM t"})
    void otherStatementsDoNot(String sql) {
        assertThat(query(sql)).isFalse();
    }

    @Test
    void sqlBeyondTheScannedLengthCountsWithoutALook() {
        String filler = " OR id = 1".repeat(SchemaWords.SCANNED_BYTES / 10);
        String scanned = "SELECT 1 FROM t WHERE id = 0" + filler.substring(0, SchemaWords.SCANNED_BYTES - 40);
        assertThat(scanned.length()).isLessThanOrEqualTo(SchemaWords.SCANNED_BYTES);
        assertThat(query(scanned)).isFalse();
        assertThat(query("SELECT 1 FROM t WHERE id = 0" + filler)).isTrue();
    }

    @ParameterizedTest
    @ValueSource(ints = {Commands.COM_INIT_DB})
    void comInitDbCounts(int command) {
        ByteBuf frame = Unpooled.wrappedBuffer(command(command, "db"));
        try {
            assertThat(SchemaWords.mayChangeSchema(command, frame)).isTrue();
            assertThat(SchemaWords.mayChangeSchema(Commands.COM_PING, frame)).isFalse();
        } finally {
            frame.release();
        }
    }
}
