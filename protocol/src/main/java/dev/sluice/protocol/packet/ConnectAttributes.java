package dev.sluice.protocol.packet;

import dev.sluice.protocol.ProtocolException;
import dev.sluice.protocol.Wire;
import io.netty.buffer.ByteBuf;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The connection attributes block of HandshakeResponse41 and COM_CHANGE_USER: the total length as
 * int&lt;lenenc&gt;, then key and value pairs as string&lt;lenenc&gt;, in the client's order.
 */
final class ConnectAttributes {

    private ConnectAttributes() {
    }

    static Map<String, String> read(ByteBuf in, String where) {
        long total = Fields.intLenenc(in, where);
        if (total < 0 || total > in.readableBytes()) {
            throw new ProtocolException(where + ": length " + total + " (expected: <= " + in.readableBytes()
                    + " remaining bytes)");
        }
        ByteBuf block = in.readSlice((int) total);
        Map<String, String> attributes = new LinkedHashMap<>();
        while (block.isReadable()) {
            String key = Fields.stringLenenc(block, where + " key");
            String value = Fields.stringLenenc(block, where + " value of " + key);
            if (attributes.putIfAbsent(key, value) != null) {
                throw new ProtocolException(where + ": key '" + key + "' twice (expected: unique keys)");
            }
        }
        return Collections.unmodifiableMap(attributes);
    }

    static void write(ByteBuf out, Map<String, String> attributes) {
        long total = 0;
        for (Map.Entry<String, String> e : attributes.entrySet()) {
            total += Strings.lenencSize(Strings.utf8(e.getKey())) + Strings.lenencSize(Strings.utf8(e.getValue()));
        }
        Wire.writeIntLenenc(out, total);
        for (Map.Entry<String, String> e : attributes.entrySet()) {
            Wire.writeStringLenenc(out, e.getKey());
            Wire.writeStringLenenc(out, e.getValue());
        }
    }
}
