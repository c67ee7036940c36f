package dev.sluice.proxy;

import dev.sluice.protocol.Capabilities;
import dev.sluice.protocol.auth.AuthPlugins;
import dev.sluice.protocol.auth.ClientAuthExchange;
import dev.sluice.protocol.auth.ClientAuthOptions;
import dev.sluice.protocol.packet.ComChangeUser;
import dev.sluice.protocol.packet.HandshakeResponse41;
import dev.sluice.protocol.packet.HandshakeV10;
import dev.sluice.proxy.testing.ServerPackets;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * A deliberately bare MySQL client over a blocking socket, for tests that must send what no real
 * client would: garbage, truncated packets, absurd lengths.
 */
final class RawClient implements AutoCloseable {

    static final long CAPABILITIES = Capabilities.CLIENT_PROTOCOL_41 | Capabilities.CLIENT_SECURE_CONNECTION
            | Capabilities.CLIENT_PLUGIN_AUTH | Capabilities.CLIENT_PLUGIN_AUTH_LENENC_CLIENT_DATA
            | Capabilities.CLIENT_TRANSACTIONS | Capabilities.CLIENT_MULTI_RESULTS;

    record RawPacket(int sequenceId, byte[] payload) {
        int header() {
            return payload.length == 0 ? -1 : payload[0] & 0xFF;
        }

        int errorCode() {
            return (payload[1] & 0xFF) | (payload[2] & 0xFF) << 8;
        }

        String errorMessage() {
            int start = payload.length > 3 && payload[3] == '#' ? 9 : 3;
            return new String(payload, start, payload.length - start, StandardCharsets.UTF_8);
        }
    }

    private final Socket socket;
    private final DataInputStream in;
    private final OutputStream out;
    /** The greeting's scramble, which a COM_CHANGE_USER answers too. */
    private byte[] scramble;
    private long connectionId;

    RawClient(int port) throws IOException {
        socket = new Socket("127.0.0.1", port);
        socket.setSoTimeout(10_000);
        socket.setTcpNoDelay(true);
        in = new DataInputStream(new java.io.BufferedInputStream(socket.getInputStream(), 1 << 16));
        out = socket.getOutputStream();
    }

    RawPacket read() throws IOException {
        int b0 = in.readUnsignedByte();
        int b1 = in.readUnsignedByte();
        int b2 = in.readUnsignedByte();
        int length = b0 | b1 << 8 | b2 << 16;
        int sequenceId = in.readUnsignedByte();
        byte[] payload = new byte[length];
        in.readFully(payload);
        return new RawPacket(sequenceId, payload);
    }

    void send(int sequenceId, byte[] payload) throws IOException {
        sendRaw(ServerPackets.frame(sequenceId, payload));
    }

    void sendRaw(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    /** Reads the greeting and logs in with mysql_native_password; returns the final packet (OK or ERR). */
    RawPacket login(String user, String password) throws IOException {
        return login(user, password, null);
    }

    /** As {@link #login(String, String)}, into {@code schema} when it is not null. */
    RawPacket login(String user, String password, String schema) throws IOException {
        return finishAuth(sendLogin(user, password, schema));
    }

    /** A COM_CHANGE_USER to {@code user} with mysql_native_password, answered to its end (OK or ERR). */
    RawPacket changeUser(String user, String password) throws IOException {
        ClientAuthExchange auth = new ClientAuthExchange(AuthPlugins.standard(),
                password.getBytes(StandardCharsets.UTF_8), ClientAuthOptions.plaintext(true));
        ClientAuthExchange.InitialResponse first = auth.start("mysql_native_password", scramble);
        ComChangeUser request = new ComChangeUser(user, first.authResponse(), "", 45, first.pluginName(), null,
                CAPABILITIES);
        ByteBuf buf = Unpooled.buffer();
        request.encode(buf);
        byte[] payload = new byte[buf.readableBytes()];
        buf.readBytes(payload);
        send(0, payload);
        return finishAuth(auth);
    }

    private RawPacket finishAuth(ClientAuthExchange auth) throws IOException {
        RawPacket reply = read();
        while (reply.header() != 0x00 && reply.header() != 0xFF) {
            var step = auth.onServerPacket(reply.payload());
            if (step instanceof dev.sluice.protocol.auth.ClientStep.Reply next) {
                send(reply.sequenceId() + 1, next.payload());
            }
            reply = read();
        }
        return reply;
    }

    /** Reads the greeting and sends the login's response, reading nothing after it. */
    ClientAuthExchange sendLogin(String user, String password, String schema) throws IOException {
        HandshakeV10 greeting = greeting();
        ClientAuthExchange auth = new ClientAuthExchange(AuthPlugins.standard(),
                password.getBytes(StandardCharsets.UTF_8), ClientAuthOptions.plaintext(true));
        ClientAuthExchange.InitialResponse first = auth.start(greeting.authPluginName(), greeting.scramble());
        long capabilities = schema == null ? CAPABILITIES : CAPABILITIES | Capabilities.CLIENT_CONNECT_WITH_DB;
        HandshakeResponse41 response = new HandshakeResponse41(capabilities, 1 << 24, 45, user,
                first.authResponse(), schema, first.pluginName(), Map.of());
        ByteBuf buf = Unpooled.buffer();
        response.encode(buf);
        byte[] payload = new byte[buf.readableBytes()];
        buf.readBytes(payload);
        send(1, payload);
        return auth;
    }

    HandshakeV10 greeting() throws IOException {
        RawPacket greeting = read();
        HandshakeV10 decoded = HandshakeV10.decode(Unpooled.wrappedBuffer(greeting.payload()));
        scramble = decoded.scramble();
        connectionId = decoded.connectionId();
        return decoded;
    }

    /** The connection id the greeting gave, once read. */
    long connectionId() {
        return connectionId;
    }

    /** A COM_QUERY; returns the first response packet. */
    RawPacket query(String sql) throws IOException {
        byte[] text = sql.getBytes(StandardCharsets.UTF_8);
        byte[] payload = new byte[1 + text.length];
        payload[0] = 0x03;
        System.arraycopy(text, 0, payload, 1, text.length);
        send(0, payload);
        return read();
    }

    /**
     * A COM_QUERY whose answer is a text result set: its first row's values (null for SQL NULL),
     * the rest read and dropped. An ERR throws, with its code and message.
     */
    java.util.List<String> firstRow(String sql) throws IOException {
        RawPacket columns = query(sql);
        if (columns.header() == 0xFF) {
            throw new IOException(columns.errorCode() + " " + columns.errorMessage());
        }
        while (read().header() != 0xFE) {
            // column definitions, up to the EOF (no CLIENT_DEPRECATE_EOF)
        }
        java.util.List<String> first = null;
        for (RawPacket row = read(); !(row.header() == 0xFE && row.payload().length < 9); row = read()) {
            if (first == null) {
                first = textRow(row.payload());
            }
        }
        return first;
    }

    private static java.util.List<String> textRow(byte[] payload) {
        java.util.List<String> values = new java.util.ArrayList<>();
        ByteBuf row = Unpooled.wrappedBuffer(payload);
        while (row.isReadable()) {
            int first = row.readUnsignedByte();
            if (first == 0xFB) {
                values.add(null);
                continue;
            }
            long length = first < 0xFB ? first : first == 0xFC ? row.readUnsignedShortLE()
                    : first == 0xFD ? row.readUnsignedMediumLE() : row.readLongLE();
            values.add(row.readCharSequence((int) length, StandardCharsets.UTF_8).toString());
        }
        return values;
    }

    /** True when the peer closed the connection (within the socket timeout), after draining what it sent. */
    boolean closedByPeer() throws IOException {
        try {
            while (in.read() >= 0) {
                // drain
            }
            return true;
        } catch (EOFException e) {
            return true;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            // connection reset counts as closed
            return true;
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
