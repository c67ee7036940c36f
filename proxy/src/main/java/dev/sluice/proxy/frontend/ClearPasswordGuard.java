package dev.sluice.proxy.frontend;

import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import java.util.Set;

/**
 * Pass-through with TLS from the client and none to the backend: the client believes its channel
 * secure and sends its password in clear wherever a plugin asks for it that way, and the proxy
 * would relay it over plain TCP. This watches the backend's side of the exchange for such a
 * request (a switch to a clear-text plugin, caching_sha2_password's "perform full authentication")
 * so the login can be refused before the client answers it.
 */
final class ClearPasswordGuard {

    /** Plugins whose client side sends the password itself when the connection is TLS. */
    private static final Set<String> CLEAR_TEXT = Set.of("mysql_clear_password", "dialog", "sha256_password");
    private static final String CACHING_SHA2 = "caching_sha2_password";
    private static final int AUTH_SWITCH = 0xFE;
    private static final int MORE_DATA = 0x01;
    private static final int PERFORM_FULL_AUTHENTICATION = 0x04;

    private String plugin;

    /** {@code clientPlugin}: the plugin of the client's handshake response (null for none). */
    ClearPasswordGuard(String clientPlugin) {
        this.plugin = clientPlugin;
    }

    /** Why the client's handshake response itself must not go on in clear, or null. */
    String refuseResponse() {
        return plugin != null && CLEAR_TEXT.contains(plugin) && !plugin.equals("sha256_password")
                ? reason(plugin + " sends it as it is") : null;
    }

    /** Why the backend's auth packet {@code payload} must not reach the client, or null to relay it. */
    String refuse(ByteBuf payload) {
        if (!payload.isReadable()) {
            return null;
        }
        int header = payload.getUnsignedByte(payload.readerIndex());
        if (header == AUTH_SWITCH && payload.readableBytes() > 1) {
            int start = payload.readerIndex() + 1;
            int end = payload.indexOf(start, payload.writerIndex(), (byte) 0);
            plugin = payload.toString(start, (end < 0 ? payload.writerIndex() : end) - start, StandardCharsets.UTF_8);
            return CLEAR_TEXT.contains(plugin) ? reason("the backend switched to " + plugin) : null;
        }
        if (header == MORE_DATA && CACHING_SHA2.equals(plugin) && payload.readableBytes() == 2
                && payload.getUnsignedByte(payload.readerIndex() + 1) == PERFORM_FULL_AUTHENTICATION) {
            return reason("caching_sha2_password asks for the full password");
        }
        return null;
    }

    private static String reason(String what) {
        return "this login would send your password in clear to the backend (" + what + "): the client's"
                + " connection is TLS and the proxy's to the backend is not; set tls.backend.enabled";
    }
}
