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
        private byte[] end = new byte[64];
        private int endLength;

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
                int length = readByte() | readByte() << 8 | readByte() << 16;
                readByte(); // the sequence id: checked by the server on the next command, not here
                if (!continuation && length < ResultRows.MAX_PAYLOAD) {
                    if (position == limit && length > 0 && !fill()) {
                        throw new EOFException("the server closed the connection in a result set");
                    }
                    int head = length == 0 ? -1 : buffer[position] & 0xFF;
                    if (head == ResultRows.END_OF_ROWS || head == ResultRows.ERROR) {
                        readEnd(length);
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
        public byte[] end() {
            return end;
        }

        @Override
        public int endLength() {
            return endLength;
        }

        private int readByte() throws IOException {
            if (position == limit && !fill()) {
                throw new EOFException("the server closed the connection in a result set");
            }
            return buffer[position++] & 0xFF;
        }

        private void skipFully(int length) throws IOException {
            int left = length;
            while (left > 0) {
                if (position == limit && !fill()) {
                    throw new EOFException("the server closed the connection in a result set");
                }
                int n = Math.min(left, limit - position);
                position += n;
                left -= n;
            }
        }

        private void readEnd(int length) throws IOException {
            if (end.length < length) {
                end = new byte[length];
            }
            int done = 0;
            while (done < length) {
                int n = read(end, done, length - done);
                if (n < 0) {
                    throw new EOFException("the server closed the connection in a result set");
                }
                done += n;
            }
            endLength = length;
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
