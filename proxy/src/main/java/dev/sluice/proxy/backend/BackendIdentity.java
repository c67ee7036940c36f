package dev.sluice.proxy.backend;

/**
 * Who a backend connection is logged in as and with which capabilities: connections with the
 * same identity are interchangeable, because the bytes of every response are shaped by the
 * negotiated capabilities and the handshake's character set.
 *
 * @param user         the account, or null for a pass-through connection the client logged in itself
 * @param capabilities the capabilities the connection negotiated (MariaDB's in the upper 32 bits)
 * @param charset      the collation id sent in the handshake response
 * @param flavor       MariaDB or MySQL, from the server's greeting
 */
public record BackendIdentity(String user, long capabilities, int charset, ServerFlavor flavor) {

    /** A MariaDB server's connection (the tests' backends). */
    public BackendIdentity(String user, long capabilities, int charset) {
        this(user, capabilities, charset, ServerFlavor.MARIADB);
    }
}
