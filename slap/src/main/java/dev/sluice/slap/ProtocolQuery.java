package dev.sluice.slap;

import com.mysql.cj.NativeSession;
import com.mysql.cj.conf.PropertyKey;
import com.mysql.cj.exceptions.CJCommunicationsException;
import com.mysql.cj.exceptions.CJException;
import com.mysql.cj.jdbc.ConnectionImpl;
import com.mysql.cj.jdbc.exceptions.SQLExceptionsMapping;
import com.mysql.cj.protocol.a.NativeConstants.IntegerDataType;
import com.mysql.cj.protocol.a.NativeMessageBuilder;
import com.mysql.cj.protocol.a.NativePacketPayload;
import com.mysql.cj.protocol.a.NativeProtocol;
import com.mysql.cj.protocol.a.NativeServerSession;

import java.io.IOException;
import java.net.Socket;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * Sends a text-protocol COM_QUERY through Connector/J's protocol layer and reads every packet of
 * every result to the end, as mysqlslap's mysql_store_result and mysql_fetch_row do, without
 * building JDBC result sets. The JDBC Statement path costs several times the CPU per statement of
 * the round trip itself (it scans each statement for an INTO clause, decodes column metadata into
 * objects and gives each result set its own calendars and value factories); on a machine the
 * client shares with the server that CPU is taken from the server being measured. Connector/J
 * still does everything else: the connection, authentication, TLS, compression, packet framing,
 * query attributes and the error packets (thrown as the SQLExceptions JDBC would throw). On a
 * plain connection (no TLS, no compression) statements of up to {@link PlainQuery#MAX_TEXT}
 * bytes bypass even the protocol layer's packet reading and writing (see there).
 */
final class ProtocolQuery {

    static final int SERVER_MORE_RESULTS_EXISTS = 0x0008;
    static final int OK = 0x00;

    private final ConnectionImpl connection;
    private final NativeSession session;
    private final NativeProtocol protocol;
    private final NativeServerSession server;
    private final NativeMessageBuilder messages;
    private final Charset charset;
    /** Whether the connection's charset is UTF-8, so that a statement's UTF-8 text can be sent as it is. */
    private final boolean charsetIsUtf8;
    /** Whether the connection's charset encodes ASCII as UTF-8 does (latin1, ascii): ASCII text goes as it is too. */
    private final boolean charsetKeepsAscii;
    private final NativePacketPayload request = new NativePacketPayload(1024);
    private final NativePacketPayload row = new NativePacketPayload(1024);
    /** Null under TLS or compression, where rows go through Connector/J's packet reader. */
    private final ResultRows plainRows;
    /** Null where {@link #plainRows} is, or where the server takes query attributes. */
    private final PlainQuery plain;
    private final NativePacketPayload end = new NativePacketPayload(0);
    private long rows;

    ProtocolQuery(Connection connection) throws SQLException {
        this.connection = connection.unwrap(ConnectionImpl.class);
        this.session = this.connection.getSession();
        this.protocol = session.getProtocol();
        this.server = protocol.getServerSession();
        this.messages = (NativeMessageBuilder) protocol.getMessageBuilder();
        String encoding = session.getPropertySet().getStringProperty(PropertyKey.characterEncoding).getValue();
        this.charset = Charset.forName(encoding == null ? "UTF-8" : encoding);
        this.charsetIsUtf8 = charset.equals(StandardCharsets.UTF_8);
        this.charsetKeepsAscii = charset.equals(StandardCharsets.ISO_8859_1) || charset.equals(StandardCharsets.US_ASCII);
        boolean compressed = session.getPropertySet().getBooleanProperty(PropertyKey.useCompression).getValue();
        try {
            Socket socket = protocol.getSocketConnection().getMysqlSocket();
            this.plainRows = compressed ? null : BufferedReadSocketFactory.resultRows(socket);
            this.plain = plainRows != null && PlainQuery.usable(server)
                    ? new PlainQuery(plainRows, socket.getOutputStream(), protocol) : null;
        } catch (IOException e) {
            throw new SQLException("cannot use the connection's socket: " + e.getMessage(), "08S01", e);
        }
    }

    /**
     * Runs {@code sql} and reads all of its results; returns the number of rows read, over all
     * results. A server error is thrown as JDBC throws it.
     */
    long run(String sql) throws SQLException {
        return run(sql, null);
    }

    /** {@link #run(String)}, with {@code utf8} (if not null) {@code sql} already encoded in UTF-8. */
    long run(String sql, byte[] utf8) throws SQLException {
        // As many UTF-8 bytes as UTF-16 chars: every char is ASCII.
        boolean sendAsIs = utf8 != null && (charsetIsUtf8 || charsetKeepsAscii && utf8.length == sql.length());
        byte[] text = sendAsIs ? utf8 : sql.getBytes(charset);
        try {
            if (plain != null && text.length <= PlainQuery.MAX_TEXT) {
                return plain.run(text);
            }
            request.setPosition(0);
            messages.buildComQuery(request, session, text);
            rows = 0;
            NativePacketPayload packet = protocol.sendCommand(request, false, 0);
            while (true) {
                int status = result(packet);
                // Kept up to date as Connector/J's own statements keep it (the transaction state).
                server.setStatusFlags(status);
                if ((status & SERVER_MORE_RESULTS_EXISTS) == 0) {
                    return rows;
                }
                packet = protocol.checkErrorMessage();
            }
        } catch (CJException e) {
            if (e instanceof CJCommunicationsException) {
                // As Connector/J's own statements do: a connection whose socket failed is closed.
                connection.cleanup(e);
            }
            throw SQLExceptionsMapping.translateException(e);
        }
    }

    /** Reads the rest of one result whose first packet is {@code first}; returns its server status. */
    private int result(NativePacketPayload first) {
        // No LOCAL INFILE request (0xFB) can come: slap does not offer CLIENT_LOCAL_FILES.
        if ((first.getByteBuffer()[0] & 0xFF) == OK) {
            return okStatus(first);
        }
        first.setPosition(0);
        long columns = first.readInteger(IntegerDataType.INT_LENENC);
        for (long i = 0; i < columns; i++) {
            protocol.skipPacket();
        }
        if (!server.isEOFDeprecated()) {
            protocol.skipPacket();
        }
        if (plainRows != null) {
            return skipPlainRows();
        }
        while (true) {
            NativePacketPayload next = protocol.readMessage(row);
            int head = next.getByteBuffer()[0] & 0xFF;
            // A row starting 0xFE is a length-encoded string of 2^24 bytes or more: never a short packet.
            if (head == ResultRows.END_OF_ROWS && next.getPayloadLength() < ResultRows.MAX_PAYLOAD) {
                return server.isEOFDeprecated() ? okStatus(next) : eofStatus(next);
            }
            if (head == ResultRows.ERROR) {
                protocol.checkErrorMessage(next);
            }
            rows++;
        }
    }

    private int skipPlainRows() {
        try {
            rows += plainRows.skipRows();
        } catch (IOException e) {
            throw new CJCommunicationsException("Communications link failure: " + e.getMessage(), e);
        }
        end.setByteBuffer(plainRows.packet());
        end.setPayloadLength(plainRows.packetLength());
        return endOfRows(protocol, end);
    }

    /**
     * The status in the packet that ended the rows: an EOF, or an OK under CLIENT_DEPRECATE_EOF;
     * an ERR is thrown as JDBC throws it.
     */
    static int endOfRows(NativeProtocol protocol, NativePacketPayload end) {
        if ((end.getByteBuffer()[0] & 0xFF) == ResultRows.ERROR) {
            end.setPosition(0);
            protocol.checkErrorMessage(end);
        }
        return protocol.getServerSession().isEOFDeprecated() ? okStatus(end) : eofStatus(end);
    }

    /** OK: header, affected rows, last insert id (both length-encoded), status flags, warnings. */
    static int okStatus(NativePacketPayload ok) {
        ok.setPosition(1);
        ok.readInteger(IntegerDataType.INT_LENENC);
        ok.readInteger(IntegerDataType.INT_LENENC);
        return (int) ok.readInteger(IntegerDataType.INT2);
    }

    /** EOF: header, warnings, status flags. */
    static int eofStatus(NativePacketPayload eof) {
        eof.setPosition(3);
        return (int) eof.readInteger(IntegerDataType.INT2);
    }
}
