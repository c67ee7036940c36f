package dev.sluice.slap;

import com.mysql.cj.exceptions.CJCommunicationsException;
import com.mysql.cj.protocol.a.NativeConstants.IntegerDataType;
import com.mysql.cj.protocol.a.NativePacketPayload;
import com.mysql.cj.protocol.a.NativeProtocol;
import com.mysql.cj.protocol.a.NativeServerSession;

import java.io.IOException;
import java.io.OutputStream;

/**
 * A COM_QUERY written to a plain connection's socket in one write, and its results read off the
 * socket's read buffer, every packet but the few that carry a status stepped over in place. Going
 * through Connector/J's protocol layer costs a load client several microseconds of CPU per
 * statement (a packet object, a header object and a copy for each column definition, its
 * bookkeeping per command), taken on a shared machine from the server being measured, and more
 * code for the JIT to compile while the first clients run. Connector/J keeps the connection:
 * it connected and authenticated it, it decodes the error packets (so errors are the exceptions
 * JDBC throws) and it is told the server status after each result, as its own statements tell it.
 */
final class PlainQuery {

    /**
     * Longer statements go through Connector/J, which splits packets of 16 MiB and more and
     * checks max_allowed_packet before sending.
     */
    static final int MAX_TEXT = 1 << 16;

    private static final int COM_QUERY = 0x03;
    private static final int LOCAL_INFILE = 0xFB;

    private final ResultRows in;
    private final OutputStream out;
    private final NativeProtocol protocol;
    private final NativeServerSession server;
    /** Connector/J's reader over the packet last kept (status fields, error packets). */
    private final NativePacketPayload view = new NativePacketPayload(0);
    private byte[] request = new byte[512];
    private long rows;

    PlainQuery(ResultRows in, OutputStream out, NativeProtocol protocol) {
        this.in = in;
        this.out = out;
        this.protocol = protocol;
        this.server = protocol.getServerSession();
    }

    /**
     * Whether statements can go this way: not when the server takes query attributes, whose
     * fields every COM_QUERY would then carry (MySQL 8.0.23 and later; Connector/J adds them).
     */
    static boolean usable(NativeServerSession server) {
        return !server.supportsQueryAttributes();
    }

    /** Runs a statement of at most {@link #MAX_TEXT} bytes; returns the rows of all of its results. */
    long run(byte[] text) {
        rows = 0;
        // As Connector/J's sendCommand: the status before the command becomes the old status (its
        // transaction-state tracking compares the two), the current one is unknown until the reply.
        server.setStatusFlags(0, true);
        try {
            send(text);
            while (true) {
                in.readPacket();
                int status = in.packetLength() > 0 && in.packet()[0] == ProtocolQuery.OK ? okStatus() : resultSet();
                // Kept up to date as Connector/J's own statements keep it (the transaction state).
                server.setStatusFlags(status);
                if ((status & ProtocolQuery.SERVER_MORE_RESULTS_EXISTS) == 0) {
                    return rows;
                }
            }
        } catch (IOException e) {
            throw new CJCommunicationsException("Communications link failure: " + e.getMessage(), e);
        }
    }

    private void send(byte[] text) throws IOException {
        int length = 1 + text.length;
        if (request.length < 4 + length) {
            request = new byte[Math.max(4 + length, request.length * 2)];
        }
        request[0] = (byte) length;
        request[1] = (byte) (length >>> 8);
        request[2] = (byte) (length >>> 16);
        request[3] = 0;
        request[4] = COM_QUERY;
        System.arraycopy(text, 0, request, 5, text.length);
        out.write(request, 0, 4 + length);
    }

    /** The first packet is an ERR or a column count; returns the status of the packet that ends the rows. */
    private int resultSet() throws IOException {
        if (in.packetLength() == 0) {
            throw new IOException("an empty packet in reply to COM_QUERY");
        }
        int head = in.packet()[0] & 0xFF;
        if (head == ResultRows.ERROR) {
            throw serverError();
        }
        if (head == LOCAL_INFILE) {
            // slap never offers CLIENT_LOCAL_FILES, so no server asks for a file.
            throw new IOException("a LOCAL INFILE request in reply to COM_QUERY, which slap does not offer");
        }
        long columns = packet().readInteger(IntegerDataType.INT_LENENC);
        in.skipPackets(server.isEOFDeprecated() ? columns : columns + 1);
        rows += in.skipRows();
        return ProtocolQuery.endOfRows(protocol, packet());
    }

    private int okStatus() {
        return ProtocolQuery.okStatus(packet());
    }

    /** Connector/J decodes the ERR packet and throws what JDBC throws for it. */
    private RuntimeException serverError() {
        protocol.checkErrorMessage(packet());
        return new IllegalStateException("Connector/J accepted an error packet as no error");
    }

    /** The packet last kept, seen through Connector/J's payload reader, from its first byte. */
    private NativePacketPayload packet() {
        view.setByteBuffer(in.packet());
        view.setPayloadLength(in.packetLength());
        view.setPosition(0);
        return view;
    }
}
