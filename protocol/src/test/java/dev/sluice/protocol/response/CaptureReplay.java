package dev.sluice.protocol.response;

import dev.sluice.protocol.Commands;
import dev.sluice.protocol.frame.PacketScanner;
import dev.sluice.protocol.testing.Direction;
import dev.sluice.protocol.testing.Handshakes;
import dev.sluice.protocol.testing.MysqlPackets;
import dev.sluice.protocol.testing.RawPacket;
import dev.sluice.protocol.testing.TcpConnection;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Plays one captured connection through a {@link ResponseTracker} the way the proxy does: the
 * server's bytes go through a {@link PacketScanner} in random chunks, and each client command
 * opens the response the tracker then follows to its end.
 */
final class CaptureReplay {

    /** One command and how its response ended. */
    record Exchange(int command, Response response, int serverPackets) {
    }

    private final List<RawPacket> client;
    private final List<ServerPacket> server = new ArrayList<>();
    private final long capabilities;
    private int clientIndex;
    private int serverIndex;

    private record ServerPacket(int length, byte[] prefix) {
    }

    CaptureReplay(TcpConnection connection, long chunkSeed, int inspectLimit) {
        this.client = MysqlPackets.split(connection.bytes(Direction.CLIENT_TO_SERVER));
        byte[] serverBytes = connection.bytes(Direction.SERVER_TO_CLIENT);
        PacketScanner scanner = new PacketScanner(inspectLimit);
        Random random = new Random(chunkSeed);
        ByteBuf stream = Unpooled.wrappedBuffer(serverBytes);
        while (stream.isReadable()) {
            ByteBuf chunk = stream.readSlice(Math.min(stream.readableBytes(), 1 + random.nextInt(70_000)));
            scanner.scan(chunk, (seq, length, payload, end) -> {
                byte[] prefix = new byte[payload.readableBytes()];
                payload.getBytes(payload.readerIndex(), prefix);
                server.add(new ServerPacket(length, prefix));
            });
        }
        if (!scanner.atBoundary()) {
            throw new AssertionError("server stream ends inside a packet");
        }
        byte[] greeting = MysqlPackets.splitPrefix(serverBytes, 1).get(0).payload();
        this.capabilities = Handshakes.negotiated(greeting, client.get(0).payload());
    }

    long capabilities() {
        return capabilities;
    }

    /** Runs the login exchange and every command; returns the command-phase exchanges. */
    List<Exchange> run() {
        ResponseTracker tracker = new ResponseTracker(capabilities);
        serverIndex = 1;  // the greeting
        clientIndex = 1;  // the handshake response
        tracker.beginAuth();
        follow(tracker);
        List<Exchange> exchanges = new ArrayList<>();
        while (clientIndex < client.size()) {
            RawPacket command = client.get(clientIndex++);
            int code = command.payload()[0] & 0xFF;
            if (Commands.expectsNoResponse(code)) {
                continue;
            }
            while (command.payload().length == 0xFF_FFFF) {
                command = client.get(clientIndex++);
            }
            tracker.begin(code);
            int before = serverIndex;
            Response response = follow(tracker);
            exchanges.add(new Exchange(code, response, serverIndex - before));
        }
        if (serverIndex != server.size()) {
            throw new AssertionError((server.size() - serverIndex) + " server packets left after the last response");
        }
        return exchanges;
    }

    Response login() {
        ResponseTracker tracker = new ResponseTracker(capabilities);
        serverIndex = 1;
        clientIndex = 1;
        tracker.beginAuth();
        return follow(tracker);
    }

    private Response follow(ResponseTracker tracker) {
        while (true) {
            if (tracker.expectsClientData()) {
                tracker.acceptClient(client.get(clientIndex++).payload().length);
                continue;
            }
            if (serverIndex >= server.size()) {
                throw new AssertionError("server stream ended inside the response to "
                        + Commands.name(tracker.command()) + " (" + tracker.phase() + ")");
            }
            ServerPacket packet = server.get(serverIndex++);
            if (tracker.accept(Unpooled.wrappedBuffer(packet.prefix()), packet.length())) {
                return tracker.response();
            }
        }
    }
}
