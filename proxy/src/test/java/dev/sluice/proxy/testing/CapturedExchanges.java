package dev.sluice.proxy.testing;

import dev.sluice.protocol.Commands;
import dev.sluice.protocol.response.Response;
import dev.sluice.protocol.response.ResponseTracker;
import dev.sluice.protocol.testing.Captures;
import dev.sluice.protocol.testing.Direction;
import dev.sluice.protocol.testing.Handshakes;
import dev.sluice.protocol.testing.MysqlPackets;
import dev.sluice.protocol.testing.RawPacket;
import dev.sluice.protocol.testing.TcpConnection;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * One captured connection (the pcapng files under protocol's test resources, read by its
 * {@link Captures}) cut into its command phase's exchanges: each command as the client sent it and
 * the server's whole response to it, bytes and headers as they were on the wire. The proxy's core
 * tests play the server's side from these, so a session or a pool meets what a real MariaDB said.
 */
public final class CapturedExchanges {

    /**
     * A command (its frames, back to back) and the response the server gave it. When the client
     * sent data within the response (an auth exchange, LOCAL INFILE contents), {@code clientData}
     * holds each of its packets and {@code responseParts} the server's bytes before, between and
     * after them; else {@code responseParts} is the response alone.
     */
    public record Exchange(int command, byte[] request, byte[] response, Response outcome, List<byte[]> clientData,
                           List<byte[]> responseParts) {

        public ByteBuf requestBuffer() {
            return Unpooled.wrappedBuffer(request.clone());
        }

        public ByteBuf responseBuffer() {
            return Unpooled.wrappedBuffer(response.clone());
        }

        /** The SQL text of a COM_QUERY or COM_STMT_PREPARE. */
        public String sql() {
            return new String(request, 5, request.length - 5, java.nio.charset.StandardCharsets.UTF_8);
        }
    }

    private final long capabilities;
    private final List<Exchange> exchanges;

    private CapturedExchanges(long capabilities, List<Exchange> exchanges) {
        this.capabilities = capabilities;
        this.exchanges = exchanges;
    }

    /** The command phase of the one connection in {@code file}. */
    public static CapturedExchanges of(String file) {
        TcpConnection connection = Captures.capture(file).connection();
        List<RawPacket> client = MysqlPackets.split(connection.bytes(Direction.CLIENT_TO_SERVER));
        List<RawPacket> server = MysqlPackets.split(connection.bytes(Direction.SERVER_TO_CLIENT));
        long capabilities = Handshakes.negotiated(server.get(0).payload(), client.get(0).payload());
        Cursor cursor = new Cursor(client, server);
        cursor.serverIndex = 1;
        cursor.clientIndex = 1;
        ResponseTracker tracker = new ResponseTracker(capabilities);
        tracker.beginAuth();
        cursor.follow(tracker, new ByteArrayOutputStream());
        List<Exchange> exchanges = new ArrayList<>();
        while (cursor.clientIndex < client.size()) {
            ByteArrayOutputStream request = new ByteArrayOutputStream();
            RawPacket first = client.get(cursor.clientIndex++);
            write(request, first);
            RawPacket last = first;
            while (last.payload().length == 0xFF_FFFF) {
                last = client.get(cursor.clientIndex++);
                write(request, last);
            }
            int code = first.payload()[0] & 0xFF;
            if (Commands.expectsNoResponse(code)) {
                exchanges.add(new Exchange(code, request.toByteArray(), new byte[0], null, List.of(), List.of()));
                continue;
            }
            tracker.begin(code);
            ByteArrayOutputStream response = new ByteArrayOutputStream();
            cursor.parts = new ArrayList<>();
            cursor.clientData = new ArrayList<>();
            cursor.part = new ByteArrayOutputStream();
            Response outcome = cursor.follow(tracker, response);
            cursor.parts.add(cursor.part.toByteArray());
            exchanges.add(new Exchange(code, request.toByteArray(), response.toByteArray(), outcome,
                    List.copyOf(cursor.clientData), List.copyOf(cursor.parts)));
        }
        return new CapturedExchanges(capabilities, List.copyOf(exchanges));
    }

    /** The capabilities client and server agreed on at login. */
    public long capabilities() {
        return capabilities;
    }

    public List<Exchange> all() {
        return exchanges;
    }

    /** The first exchange of {@code command}; fails when the capture has none. */
    public Exchange first(int command) {
        return exchanges.stream().filter(e -> e.command() == command).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no " + Commands.name(command) + " in the capture"));
    }

    /** The first COM_QUERY whose text starts with {@code prefix} (any case). */
    public Exchange query(String prefix) {
        return exchanges.stream().filter(e -> e.command() == Commands.COM_QUERY
                        && e.sql().regionMatches(true, 0, prefix, 0, prefix.length())).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no query starting with " + prefix + " in the capture"));
    }

    private static void write(ByteArrayOutputStream out, RawPacket packet) {
        int length = packet.payload().length;
        out.write(length & 0xFF);
        out.write(length >> 8 & 0xFF);
        out.write(length >> 16 & 0xFF);
        out.write(packet.seq());
        out.writeBytes(packet.payload());
    }

    /** Where the exchanges are read up to, in both directions. */
    private static final class Cursor {
        final List<RawPacket> client;
        final List<RawPacket> server;
        int clientIndex;
        int serverIndex;
        /** The server's bytes since the last client data, and the parts and client data so far. */
        ByteArrayOutputStream part = new ByteArrayOutputStream();
        List<byte[]> parts;
        List<byte[]> clientData;

        Cursor(List<RawPacket> client, List<RawPacket> server) {
            this.client = client;
            this.server = server;
        }

        Response follow(ResponseTracker tracker, ByteArrayOutputStream response) {
            while (true) {
                if (tracker.expectsClientData()) {
                    RawPacket data = client.get(clientIndex++);
                    tracker.acceptClient(data.payload().length);
                    if (parts != null) {
                        ByteArrayOutputStream framed = new ByteArrayOutputStream();
                        write(framed, data);
                        clientData.add(framed.toByteArray());
                        parts.add(part.toByteArray());
                        part = new ByteArrayOutputStream();
                    }
                    continue;
                }
                if (serverIndex >= server.size()) {
                    throw new IllegalStateException("the capture ends inside a response to " + Commands.name(tracker.command()));
                }
                RawPacket packet = server.get(serverIndex++);
                write(response, packet);
                write(part, packet);
                if (tracker.accept(Unpooled.wrappedBuffer(packet.payload()), packet.payload().length)) {
                    return tracker.response();
                }
            }
        }
    }
}
