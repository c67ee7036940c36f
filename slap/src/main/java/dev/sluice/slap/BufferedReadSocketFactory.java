package dev.sluice.slap;

import com.mysql.cj.conf.PropertySet;
import com.mysql.cj.protocol.StandardSocketFactory;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.net.Proxy;
import java.net.Socket;

/**
 * Connector/J's plain TCP sockets, read through a buffer of their own: one system call takes in
 * whatever the server has sent, and the many small reads Connector/J makes per reply (a 4-byte
 * header, then the payload, for every packet) are served from the buffer. Connector/J's own
 * buffered stream would do the same through a lock and a JDK wrapper per read, and before each
 * command it drains what is left unread by asking {@code available()}, which the JDK answers with
 * a FIONREAD system call; here {@code available()} is what the buffer holds (slap reads every
 * reply to its end, so that is 0). One client thread uses a connection at a time, so nothing is
 * synchronized. Named in Connector/J's {@code socketFactory} property (with {@code
 * useUnbufferedInput}), so it needs a public no-argument constructor.
 */
public final class BufferedReadSocketFactory extends StandardSocketFactory {

    static final int BUFFER_SIZE = 16384;

    public BufferedReadSocketFactory() {
    }

    @Override
    protected Socket createSocket(PropertySet props) {
        return new BufferedReadSocket();
    }

    /** The rows of a plain (no TLS, no compression) connection of this factory, or null. */
    static ResultRows resultRows(Socket socket) throws IOException {
        return socket instanceof BufferedReadSocket plain ? (BufferedRead) plain.getInputStream() : null;
    }

    /** The buffered reading of this factory's sockets over any stream. */
    static ResultRows reading(InputStream in) {
        return new BufferedRead(in);
    }

    private static final class BufferedReadSocket extends Socket {

        private InputStream input;

        /** Direct: a plain Socket would ask the JVM's proxy selector on every connect, as mysqlslap never does. */
        BufferedReadSocket() {
            super(Proxy.NO_PROXY);
        }

        @Override
        public synchronized InputStream getInputStream() throws IOException {
            if (input == null) {
                input = new BufferedRead(super.getInputStream());
            }
            return input;
        }
    }

    private static final class BufferedRead extends InputStream implements ResultRows {

        private final InputStream socket;
        private final byte[] buffer = new byte[BUFFER_SIZE];
        private int position;
        private int limit;
        /** The last packet kept whole: an OK, ERR or EOF, a column count. */
        private byte[] packet = new byte[64];
        private int packetLength;

        BufferedRead(InputStream socket) {
            this.socket = socket;
        }

        /** Reads what the socket has (blocking until something arrives); false at the end of the stream. */
        private boolean fill() throws IOException {
            int n = socket.read(buffer, 0, buffer.length);
            if (n <= 0) {
                return false;
            }
            position = 0;
            limit = n;
            return true;
        }

        @Override
        public int read() throws IOException {
            if (position == limit && !fill()) {
                return -1;
            }
            return buffer[position++] & 0xFF;
        }

        @Override
        public int read(byte[] into, int offset, int length) throws IOException {
            if (length == 0) {
                return 0;
            }
            if (position == limit) {
                if (length >= buffer.length) {
                    return socket.read(into, offset, length);
                }
                if (!fill()) {
                    return -1;
                }
            }
            int n = Math.min(length, limit - position);
            System.arraycopy(buffer, position, into, offset, n);
            position += n;
            return n;
        }

        /** -1 at the end of the stream, where Connector/J's skipFully expects a negative count. */
        @Override
        public long skip(long count) throws IOException {
            if (count <= 0) {
                return 0;
            }
            if (position == limit && !fill()) {
                return -1;
            }
            int n = (int) Math.min(count, limit - position);
            position += n;
            return n;
        }

        @Override
        public int available() {
            return limit - position;
        }

        @Override
        public long skipRows() throws IOException {
            long rows = 0;
            boolean continuation = false;
            while (true) {
                int length = header();
                if (!continuation && length < ResultRows.MAX_PAYLOAD) {
                    if (position == limit && length > 0 && !fill()) {
                        throw closed();
                    }
                    int head = length == 0 ? -1 : buffer[position] & 0xFF;
                    if (head == ResultRows.END_OF_ROWS || head == ResultRows.ERROR) {
                        keep(length);
                        return rows;
                    }
                }
                if (!continuation) {
                    rows++;
                }
                // A payload of 2^24 - 1 bytes is continued in the next packet: the same row.
                continuation = length == ResultRows.MAX_PAYLOAD;
                skipFully(length);
            }
        }

        @Override
        public void readPacket() throws IOException {
            keep(shortPacket());
        }

        @Override
        public void skipPackets(long count) throws IOException {
            for (long i = 0; i < count; i++) {
                skipFully(shortPacket());
            }
        }

        @Override
        public byte[] packet() {
            return packet;
        }

        @Override
        public int packetLength() {
            return packetLength;
        }

        /** The payload length from a packet's header; the sequence id is checked by the server on the next command, not here. */
        private int header() throws IOException {
            int length = readByte() | readByte() << 8 | readByte() << 16;
            readByte();
            return length;
        }

        private int shortPacket() throws IOException {
            int length = header();
            if (length == ResultRows.MAX_PAYLOAD) {
                throw new IOException("a packet of 16 MiB or more where the protocol has only short ones");
            }
            return length;
        }

        private int readByte() throws IOException {
            if (position == limit && !fill()) {
                throw closed();
            }
            return buffer[position++] & 0xFF;
        }

        private void skipFully(int length) throws IOException {
            int left = length;
            while (left > 0) {
                if (position == limit && !fill()) {
                    throw closed();
                }
                int n = Math.min(left, limit - position);
                position += n;
                left -= n;
            }
        }

        private void keep(int length) throws IOException {
            if (packet.length < length) {
                packet = new byte[length];
            }
            int done = 0;
            while (done < length) {
                int n = read(packet, done, length - done);
                if (n < 0) {
                    throw closed();
                }
                done += n;
            }
            packetLength = length;
        }

        private static EOFException closed() {
            return new EOFException("the server closed the connection in the middle of a reply");
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
