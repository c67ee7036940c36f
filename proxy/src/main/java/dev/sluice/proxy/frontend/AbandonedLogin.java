package dev.sluice.proxy.frontend;

import dev.sluice.protocol.Capabilities;
import dev.sluice.protocol.auth.MysqlNativePassword;
import dev.sluice.protocol.frame.RawPacketDecoder;
import dev.sluice.protocol.packet.ErrPacket;
import dev.sluice.protocol.packet.HandshakeResponse41;
import dev.sluice.proxy.backend.OwnCommands;
import dev.sluice.proxy.command.Replies;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A pass-through login whose client left mid-way. Dropping the backend connection then would be
 * an aborted handshake, and enough of those make the backend block the proxy's host (error 1129).
 * So the login is finished instead: a response for a user that does not exist (an access-denied
 * error, which does not count towards max_connect_errors), empty answers to any auth request,
 * COM_QUIT should it succeed anyway; the connection closes after a grace period whatever happens.
 */
final class AbandonedLogin {

    /** Shows up in the backend's log as the user of logins whose client went away. */
    static final String USER = "sluice_abandoned_login";
    private static final long GRACE_MILLIS = 5_000;

    private boolean greetingSeen;
    private boolean responseSent;

    /** The backend greeted: a handshake response is due. */
    void greeted() {
        greetingSeen = true;
    }

    /** The client's handshake response went to the backend. */
    void responded() {
        responseSent = true;
    }

    /** The client left: the login on {@code backend} (null before it connected) is finished without it. */
    void start(Channel backend) {
        if (backend == null || !backend.isActive()) {
            return;
        }
        if (greetingSeen && !responseSent) {
            sendResponse(backend, 1);
        }
        backend.eventLoop().schedule(() -> {
            backend.close();
        }, GRACE_MILLIS, TimeUnit.MILLISECONDS);
    }

    /** A packet the backend sent after the client left, answered so that the login ends cleanly. */
    void read(Channel backend, ByteBuf frame) {
        ByteBuf payload = RawPacketDecoder.payload(frame);
        int sequenceId = RawPacketDecoder.sequenceId(frame);
        int header = payload.isReadable() ? payload.getUnsignedByte(payload.readerIndex()) : -1;
        if (!greetingSeen) {
            greetingSeen = true;
            if (header == ErrPacket.HEADER) {
                backend.close();
            } else {
                sendResponse(backend, sequenceId + 1);
            }
            return;
        }
        switch (header) {
            case 0x00 -> backend.writeAndFlush(OwnCommands.quit(backend.alloc())).addListener(ChannelFutureListener.CLOSE);
            case 0xFE, 0x01 -> backend.writeAndFlush(Replies.frame(backend.alloc(), sequenceId + 1, new byte[0]));
            default -> backend.close();
        }
    }

    private void sendResponse(Channel backend, int sequenceId) {
        responseSent = true;
        long capabilities = Capabilities.CLIENT_PROTOCOL_41 | Capabilities.CLIENT_SECURE_CONNECTION
                | Capabilities.CLIENT_PLUGIN_AUTH | Capabilities.CLIENT_PLUGIN_AUTH_LENENC_CLIENT_DATA;
        HandshakeResponse41 response = new HandshakeResponse41(capabilities, 1 << 24, 45, USER, new byte[0], null,
                MysqlNativePassword.NAME, Map.of());
        backend.writeAndFlush(Replies.frame(backend.alloc(), sequenceId, response));
    }
}
