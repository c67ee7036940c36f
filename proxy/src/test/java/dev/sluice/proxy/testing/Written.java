package dev.sluice.proxy.testing;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.embedded.EmbeddedChannel;
import java.io.ByteArrayOutputStream;

/** What handlers under test wrote to an {@link EmbeddedChannel}. */
public final class Written {

    private Written() {
    }

    /** Everything written to {@code channel} since last asked, read and released. */
    public static byte[] drain(EmbeddedChannel channel) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Object message = channel.readOutbound(); message != null; message = channel.readOutbound()) {
            ByteBuf bytes = (ByteBuf) message;
            out.writeBytes(ByteBufUtil.getBytes(bytes));
            bytes.release();
        }
        return out.toByteArray();
    }
}
