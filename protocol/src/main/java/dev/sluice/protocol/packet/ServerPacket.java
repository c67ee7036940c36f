package dev.sluice.protocol.packet;

import io.netty.buffer.ByteBuf;

/**
 * A packet the server sends. Which one a payload holds depends on the phase and the command in
 * flight (0xFE is an AuthSwitchRequest while authenticating, an EOF or an OK after column
 * definitions, and a text row that starts with a 0xFE length prefix inside a result set), so there
 * is no decoder that guesses; callers pick the record's own {@code decode}.
 */
public sealed interface ServerPacket permits HandshakeV10, AuthSwitchRequest, AuthMoreData, OkPacket, ErrPacket,
        ProgressReport, EofPacket, ColumnCount, ColumnDefinition41, StmtPrepareOk, LocalInfileRequest {

    /** Writes the payload (no 4-byte packet header) exactly as it is laid out on the wire. */
    void encode(ByteBuf out);
}
