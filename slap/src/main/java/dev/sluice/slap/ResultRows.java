package dev.sluice.slap;

import java.io.IOException;

/**
 * The row packets of a text result read straight off the connection's read buffer: each packet's
 * header is read and its payload stepped over, with no copy and no object per row. mysqlslap
 * stores every row (mysql_store_result) and frees them unread; slap reads the same bytes and
 * skips building what nobody looks at. Only where the socket's bytes are the protocol's bytes
 * (no TLS, no compression).
 */
interface ResultRows {

    int MAX_PAYLOAD = 0xFFFFFF;
    int END_OF_ROWS = 0xFE;
    int ERROR = 0xFF;

    /**
     * Reads row packets until the packet that ends them (EOF, or OK under CLIENT_DEPRECATE_EOF,
     * both starting 0xFE; or ERR), which is kept in {@link #end()}; returns the rows read.
     */
    long skipRows() throws IOException;

    /** The payload of the packet that ended the rows, {@link #endLength()} bytes long. */
    byte[] end();

    int endLength();
}
