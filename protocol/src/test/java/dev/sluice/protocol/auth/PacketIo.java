package dev.sluice.protocol.auth;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/** Blocking MySQL packet framing for the socket tests: 3-byte length, sequence id, payload. Auth packets never need the 16 MiB split. */
final class PacketIo {

    record Packet(int sequenceId, byte[] payload) {
    }

    private PacketIo() {
    }

    static Packet read(InputStream in) throws IOException {
        byte[] header = in.readNBytes(4);
        if (header.length < 4) {
            throw new EOFException("connection closed after " + header.length + " of 4 header bytes");
        }
        int length = (header[0] & 0xFF) | (header[1] & 0xFF) << 8 | (header[2] & 0xFF) << 16;
        byte[] payload = in.readNBytes(length);
        if (payload.length < length) {
            throw new EOFException("connection closed after " + payload.length + " of " + length + " payload bytes");
        }
        return new Packet(header[3] & 0xFF, payload);
    }

    static void write(OutputStream out, int sequenceId, byte[] payload) throws IOException {
        if (payload.length >= 0xFF_FFFF) {
            throw new IllegalArgumentException("payload of " + payload.length + " bytes needs splitting, which these tests never do");
        }
        out.write(new byte[] {(byte) payload.length, (byte) (payload.length >>> 8), (byte) (payload.length >>> 16), (byte) sequenceId});
        out.write(payload);
        out.flush();
    }
}
