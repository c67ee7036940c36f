package dev.sluice.proxy.differential;

import dev.sluice.protocol.Capabilities;
import dev.sluice.protocol.Commands;
import dev.sluice.protocol.ServerStatus;
import dev.sluice.protocol.auth.AuthPlugins;
import dev.sluice.protocol.auth.ClientAuthExchange;
import dev.sluice.protocol.auth.ClientAuthOptions;
import dev.sluice.protocol.auth.ClientStep;
import dev.sluice.protocol.packet.HandshakeResponse41;
import dev.sluice.protocol.packet.HandshakeV10;
import dev.sluice.proxy.testing.ServerPackets;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A text-protocol client that asks for what the mariadb client library asks for and, like it,
 * not CLIENT_DEPRECATE_EOF: results end with EOF packets, which carry no session-state report, so
 * the proxy sees changes later than with Connector/J. Answers are written down as text to compare.
 */
final class WireClient implements AutoCloseable {

    /** The mariadb CLI's capabilities (captures/README.md), with the schema in the login. */
    private static final long CAPABILITIES = Capabilities.CLIENT_PROTOCOL_41 | Capabilities.CLIENT_SECURE_CONNECTION
            | Capabilities.CLIENT_PLUGIN_AUTH | Capabilities.CLIENT_PLUGIN_AUTH_LENENC_CLIENT_DATA
            | Capabilities.CLIENT_TRANSACTIONS | Capabilities.CLIENT_MULTI_RESULTS | Capabilities.CLIENT_MULTI_STATEMENTS
            | Capabilities.CLIENT_PS_MULTI_RESULTS | Capabilities.CLIENT_SESSION_TRACK | Capabilities.CLIENT_LONG_FLAG
            | Capabilities.CLIENT_CONNECT_WITH_DB;
    private static final int UTF8MB4_GENERAL_CI = 45;

    /** What a result's reader is told of each row, to pause as a slow reader does. */
    interface RowListener {
        void row(long count) throws IOException;
    }

    private final Socket socket;
    private final DataInputStream in;
    private final OutputStream out;
    private final long connectionId;
    /** The sequence id of the packet read last. */
    private int sequence;

    WireClient(int port, String database, String user, String password, int timeoutMillis) throws IOException {
        socket = new Socket("127.0.0.1", port);
        socket.setSoTimeout(timeoutMillis);
        socket.setTcpNoDelay(true);
        in = new DataInputStream(new BufferedInputStream(socket.getInputStream(), 1 << 16));
        out = socket.getOutputStream();
        byte[] greetingPayload = read();
        HandshakeV10 greeting = HandshakeV10.decode(Unpooled.wrappedBuffer(greetingPayload));
        connectionId = greeting.connectionId();
        ClientAuthExchange auth = new ClientAuthExchange(AuthPlugins.standard(), password.getBytes(StandardCharsets.UTF_8),
                ClientAuthOptions.plaintext(true));
        ClientAuthExchange.InitialResponse first = auth.start(greeting.authPluginName(), greeting.scramble());
        HandshakeResponse41 response = new HandshakeResponse41(CAPABILITIES, 1 << 24, UTF8MB4_GENERAL_CI, user,
                first.authResponse(), database, first.pluginName(), Map.of());
        ByteBuf buf = Unpooled.buffer();
        response.encode(buf);
        send(1, bytes(buf));
        while (true) {
            byte[] reply = read();
            int header = reply[0] & 0xFF;
            if (header == 0x00) {
                return;
            }
            if (header == 0xFF) {
                socket.close();
                throw new IOException("login refused: " + error(reply));
            }
            if (auth.onServerPacket(reply) instanceof ClientStep.Reply next) {
                send(sequence + 1, next.payload());
            }
        }
    }

    long connectionId() {
        return connectionId;
    }

    /** A COM_QUERY, every result of it written down. */
    List<String> query(String sql, RowListener rows) throws IOException {
        byte[] text = sql.getBytes(StandardCharsets.UTF_8);
        byte[] payload = new byte[1 + text.length];
        payload[0] = (byte) Commands.COM_QUERY;
        System.arraycopy(text, 0, payload, 1, text.length);
        send(0, payload);
        return results(rows);
    }

    List<String> query(String sql) throws IOException {
        return query(sql, count -> { });
    }

    /** A command without arguments but its payload (COM_INIT_DB, COM_RESET_CONNECTION...). */
    List<String> command(int command, String argument) throws IOException {
        byte[] text = argument.getBytes(StandardCharsets.UTF_8);
        byte[] payload = new byte[1 + text.length];
        payload[0] = (byte) command;
        System.arraycopy(text, 0, payload, 1, text.length);
        send(0, payload);
        return results(count -> { });
    }

    private List<String> results(RowListener rows) throws IOException {
        List<String> answers = new ArrayList<>();
        while (true) {
            byte[] first = read();
            int header = first[0] & 0xFF;
            int status;
            if (header == 0xFF) {
                answers.add("error " + error(first));
                return answers;
            } else if (header == 0x00) {
                ByteBuf ok = Unpooled.wrappedBuffer(first).skipBytes(1);
                long affected = lenenc(ok);
                long insertId = lenenc(ok);
                status = ok.readUnsignedShortLE();
                int warnings = ok.readUnsignedShortLE();
                answers.add("ok affected " + affected + " id " + insertId + " warnings " + warnings + transaction(status));
            } else {
                status = resultSet(first, rows, answers);
            }
            if (!ServerStatus.has(status, ServerStatus.MORE_RESULTS_EXISTS)) {
                return answers;
            }
        }
    }

    /** Columns' names and types, then rows to the EOF; returns the EOF's status. */
    private int resultSet(byte[] countPacket, RowListener rows, List<String> answers) throws IOException {
        long columns = lenenc(Unpooled.wrappedBuffer(countPacket));
        StringBuilder meta = new StringBuilder("columns");
        for (long i = 0; i < columns; i++) {
            ByteBuf definition = Unpooled.wrappedBuffer(read());
            for (int field = 0; field < 4; field++) {
                skipLenencString(definition);
            }
            String name = lenencString(definition);
            skipLenencString(definition);
            lenenc(definition);
            definition.skipBytes(6);
            meta.append(' ').append(name).append(':').append(definition.readUnsignedByte());
        }
        read();
        Results.RowDigest digest = new Results.RowDigest();
        while (true) {
            byte[] packet = read();
            if ((packet[0] & 0xFF) == 0xFE && packet.length < 9) {
                ByteBuf eof = Unpooled.wrappedBuffer(packet).skipBytes(1);
                int warnings = eof.readUnsignedShortLE();
                int status = eof.readUnsignedShortLE();
                answers.add(meta + " " + digest + " warnings " + warnings + transaction(status));
                return status;
            }
            if ((packet[0] & 0xFF) == 0xFF) {
                answers.add(meta + " " + digest + " then error " + error(packet));
                return 0;
            }
            ByteBuf row = Unpooled.wrappedBuffer(packet);
            List<String> values = new ArrayList<>((int) columns);
            while (row.isReadable()) {
                if (row.getUnsignedByte(row.readerIndex()) == 0xFB) {
                    row.skipBytes(1);
                    values.add(null);
                } else {
                    values.add(lenencString(row));
                }
            }
            digest.add(values);
            rows.row(digest.count());
        }
    }

    private static String transaction(int status) {
        return (ServerStatus.has(status, ServerStatus.IN_TRANS) ? " in transaction" : "")
                + (ServerStatus.has(status, ServerStatus.AUTOCOMMIT) ? "" : " no autocommit");
    }

    private static String error(byte[] packet) {
        ByteBuf err = Unpooled.wrappedBuffer(packet).skipBytes(1);
        int code = err.readUnsignedShortLE();
        String state = "";
        if (err.isReadable() && err.getByte(err.readerIndex()) == '#') {
            state = err.skipBytes(1).readCharSequence(5, StandardCharsets.US_ASCII) + " ";
        }
        return code + " " + state + err.readCharSequence(err.readableBytes(), StandardCharsets.UTF_8);
    }

    private static long lenenc(ByteBuf b) {
        int first = b.readUnsignedByte();
        return first < 0xFB ? first : first == 0xFC ? b.readUnsignedShortLE()
                : first == 0xFD ? b.readUnsignedMediumLE() : b.readLongLE();
    }

    private static String lenencString(ByteBuf b) {
        int length = (int) lenenc(b);
        return b.readCharSequence(length, StandardCharsets.UTF_8).toString();
    }

    private static void skipLenencString(ByteBuf b) {
        b.skipBytes((int) lenenc(b));
    }

    /** One packet's payload; packets of 16 MiB - 1 and their continuations are joined. */
    private byte[] read() throws IOException {
        java.io.ByteArrayOutputStream joined = null;
        while (true) {
            int length = in.readUnsignedByte() | in.readUnsignedByte() << 8 | in.readUnsignedByte() << 16;
            sequence = in.readUnsignedByte();
            byte[] payload = new byte[length];
            in.readFully(payload);
            if (length < 0xFFFFFF && joined == null) {
                return payload;
            }
            if (joined == null) {
                joined = new java.io.ByteArrayOutputStream();
            }
            joined.write(payload);
            if (length < 0xFFFFFF) {
                return joined.toByteArray();
            }
        }
    }

    private void send(int sequenceId, byte[] payload) throws IOException {
        out.write(ServerPackets.frame(sequenceId, payload));
        out.flush();
    }

    private static byte[] bytes(ByteBuf buf) {
        byte[] payload = new byte[buf.readableBytes()];
        buf.readBytes(payload);
        return payload;
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
