package dev.sluice.proxy.frontend;

import dev.sluice.protocol.frame.Packet;
import dev.sluice.protocol.frame.RawPacketDecoder;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.TooLongFrameException;

/**
 * How long a packet a client may send before it has logged in: enough for a handshake response
 * with generous connection attributes, an RSA-encrypted password or a TLS request, and far less
 * than a command may be, so that connections that never log in cannot make the proxy buffer
 * max_packet_size each (150 of them sending 16 MiB of junk held 2.4 GB).
 */
public final class LoginPacketLimit {

    /** Bytes of payload a packet may have before login. */
    public static final int BEFORE_LOGIN = 16 * 1024;

    private LoginPacketLimit() {
    }

    /** The session has started: packets up to what commands may be are read from now on. */
    static void afterLogin(ChannelHandlerContext ctx, long maxPacketSize) {
        RawPacketDecoder frames = ctx.pipeline().get(RawPacketDecoder.class);
        if (frames != null) {
            frames.maxPacket((int) Math.min(Packet.MAX_PAYLOAD, maxPacketSize));
        }
    }

    /** What went wrong, for the "Bad handshake" ERR: a packet over the limit is named as such. */
    static String describe(Throwable cause) {
        return cause instanceof TooLongFrameException
                ? "a packet bigger than the " + BEFORE_LOGIN + " bytes a client may send before it has logged in ("
                        + cause.getMessage() + ")"
                : cause.getMessage();
    }
}
