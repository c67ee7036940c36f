package dev.sluice.proxy.backend;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.BackendConfig;
import dev.sluice.config.HostPort;
import dev.sluice.protocol.Capabilities;
import dev.sluice.protocol.Commands;
import dev.sluice.proxy.testing.ServerPackets;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A closed pool keeps no connection: whatever comes back to it, before or after close(), is quit
 * (COM_QUIT, then closed), so that shutdown does not leave connections open for the event loops'
 * teardown to cut.
 */
class PoolCloseTest {

    private static final long CAPABILITIES = Capabilities.CLIENT_PROTOCOL_41 | Capabilities.CLIENT_TRANSACTIONS;

    /** OK to the pool's COM_RESET_CONNECTION: sequence id 1, nothing affected, autocommit. */
    private static final byte[] RESET_OK = {
        0x07, 0x00, 0x00,   // payload length 7
        0x01,               // sequence id: the answer to the command's 0
        0x00,               // OK header
        0x00,               // affected rows 0
        0x00,               // last insert id 0
        0x02, 0x00,         // status: SERVER_STATUS_AUTOCOMMIT
        0x00, 0x00,         // warnings 0
    };

    private final Backend backend = new Backend(BackendConfig.of(HostPort.parse("127.0.0.1:3306")));
    private final BackendPool pool = new BackendPool(backend, null, 10, Duration.ofSeconds(1));

    private BackendConnection connection(EmbeddedChannel channel) {
        BackendConnection connection = new RelayedConnection(channel, backend, new BackendIdentity("app", CAPABILITIES, 45),
                null);
        channel.pipeline().addLast(connection);
        return connection;
    }

    /** The command byte of the next packet the connection sent. */
    private static int nextCommand(EmbeddedChannel channel) {
        ByteBuf packet = channel.readOutbound();
        assertThat(packet).as("a packet sent to the backend").isNotNull();
        try {
            return packet.getUnsignedByte(packet.readerIndex() + 4);
        } finally {
            packet.release();
        }
    }

    @Test
    void aConnectionWhoseResetIsAnsweredAfterCloseIsQuitNotKeptIdle() {
        EmbeddedChannel channel = new EmbeddedChannel();
        BackendConnection connection = connection(channel);

        pool.release(connection);
        assertThat(nextCommand(channel)).isEqualTo(Commands.COM_RESET_CONNECTION);
        assertThat(nextCommand(channel)).as("the character set set again").isEqualTo(Commands.COM_QUERY);
        pool.close();
        channel.writeInbound(Unpooled.wrappedBuffer(RESET_OK));
        channel.writeInbound(Unpooled.wrappedBuffer(ServerPackets.afterResetAnswers(CAPABILITIES)));
        channel.runPendingTasks();

        assertThat(nextCommand(channel)).isEqualTo(Commands.COM_QUIT);
        assertThat(channel.isOpen()).isFalse();
        assertThat(pool.idleCount()).isZero();
        channel.finishAndReleaseAll();
    }

    @Test
    void anIdleConnectionIsQuitWhenThePoolCloses() {
        EmbeddedChannel channel = new EmbeddedChannel();
        BackendConnection connection = connection(channel);
        pool.release(connection);
        assertThat(nextCommand(channel)).isEqualTo(Commands.COM_RESET_CONNECTION);
        assertThat(nextCommand(channel)).as("the character set set again").isEqualTo(Commands.COM_QUERY);
        channel.writeInbound(Unpooled.wrappedBuffer(RESET_OK));
        channel.writeInbound(Unpooled.wrappedBuffer(ServerPackets.afterResetAnswers(CAPABILITIES)));
        assertThat(pool.idleCount()).isOne();

        pool.close();
        channel.runPendingTasks();

        assertThat(nextCommand(channel)).isEqualTo(Commands.COM_QUIT);
        assertThat(channel.isOpen()).isFalse();
        assertThat(pool.idleCount()).isZero();
        channel.finishAndReleaseAll();
    }
}
