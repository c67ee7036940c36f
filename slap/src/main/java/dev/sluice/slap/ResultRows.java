package dev.sluice.slap;

import java.io.IOException;

/**
 * The packets of a reply read straight off the connection's read buffer: rows and column
 * definitions have their header read and their payload stepped over, with no copy and no object
 * per packet; only the packets whose content matters (OK, ERR, EOF, a column count) are kept.
 * mysqlslap stores every row (mysql_store_result) and frees them unread; slap reads the same bytes
 * and skips building what nobody looks at. Only where the socket's bytes are the protocol's bytes
 * (no TLS, no compression).
 */
interface ResultRows {

    int MAX_PAYLOAD = 0xFFFFFF;
    int END_OF_ROWS = 0xFE;
    int ERROR = 0xFF;

    /**
     * Reads row packets until the packet that ends them (EOF, or OK under CLIENT_DEPRECATE_EOF,
     * both starting 0xFE; or ERR), which is kept in {@link #packet()}; returns the rows read.
     */
    long skipRows() throws IOException;

    /** Reads one packet of less than {@link #MAX_PAYLOAD} bytes whole into {@link #packet()}. */
    void readPacket() throws IOException;

    /** Steps over {@code count} packets of less than {@link #MAX_PAYLOAD} bytes each. */
    void skipPackets(long count) throws IOException;

    /** The payload of the last packet kept, {@link #packetLength()} bytes long. */
    byte[] packet();

    int packetLength();
}
