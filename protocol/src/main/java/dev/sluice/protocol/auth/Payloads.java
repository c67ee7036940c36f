package dev.sluice.protocol.auth;

import dev.sluice.protocol.packet.ServerPacket;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.util.function.Function;

/** Between the packet records and the byte[] payloads the auth state machines trade in. */
final class Payloads {

    private Payloads() {
    }

    static byte[] encode(ServerPacket packet) {
        ByteBuf buf = Unpooled.buffer();
        try {
            packet.encode(buf);
            return ByteBufUtil.getBytes(buf);
        } finally {
            buf.release();
        }
    }

    static <T> T decode(byte[] payload, Function<ByteBuf, T> decoder) {
        ByteBuf buf = Unpooled.wrappedBuffer(payload);
        try {
            return decoder.apply(buf);
        } finally {
            buf.release();
        }
    }
}
