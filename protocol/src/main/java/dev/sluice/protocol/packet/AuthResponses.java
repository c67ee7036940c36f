package dev.sluice.protocol.packet;

import dev.sluice.protocol.Capabilities;
import dev.sluice.protocol.Wire;
import io.netty.buffer.ByteBuf;

/**
 * The auth response field of HandshakeResponse41 in its three encodings: int&lt;lenenc&gt; length
 * with CLIENT_PLUGIN_AUTH_LENENC_CLIENT_DATA, a 1-byte length with CLIENT_SECURE_CONNECTION, else
 * NUL-terminated (which cannot carry a NUL byte, so only old-style responses use it).
 */
final class AuthResponses {

    private AuthResponses() {
    }

    static byte[] read(ByteBuf in, long capabilities, boolean lenencAllowed, String where) {
        if (lenencAllowed && Capabilities.has(capabilities, Capabilities.CLIENT_PLUGIN_AUTH_LENENC_CLIENT_DATA)) {
            return Fields.bytesLenenc(in, where);
        }
        if (Capabilities.has(capabilities, Capabilities.CLIENT_SECURE_CONNECTION)) {
            int length = Fields.int1(in, where + " length");
            return Fields.bytesFix(in, length, where);
        }
        return Fields.bytesNul(in, where);
    }

    static void write(ByteBuf out, byte[] response, long capabilities, boolean lenencAllowed, String where) {
        if (lenencAllowed && Capabilities.has(capabilities, Capabilities.CLIENT_PLUGIN_AUTH_LENENC_CLIENT_DATA)) {
            Wire.writeBytesLenenc(out, response);
        } else if (Capabilities.has(capabilities, Capabilities.CLIENT_SECURE_CONNECTION)) {
            if (response.length > 255) {
                throw new IllegalArgumentException(where + ": " + response.length
                        + " bytes do not fit a 1-byte length (CLIENT_SECURE_CONNECTION without LENENC_CLIENT_DATA)");
            }
            out.writeByte(response.length);
            out.writeBytes(response);
        } else {
            Wire.writeBytesNul(out, response);
        }
    }
}
