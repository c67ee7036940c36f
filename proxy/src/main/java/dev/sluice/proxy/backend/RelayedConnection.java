package dev.sluice.proxy.backend;

import dev.sluice.protocol.Commands;
import dev.sluice.protocol.Wire;
import dev.sluice.protocol.response.Response;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.function.Consumer;

/**
 * A session-mode backend connection: one client session's for its whole life, its responses
 * relayed as they arrive, whatever their cuts, and nothing of the session's state tracked (the
 * client and the server keep it between them).
 */
public final class RelayedConnection extends BackendConnection {

    /** OK, ERR, EOF, column count and prepare-OK all fit; longer packets are rows or data. */
    private static final int INSPECT_LIMIT = 1024;

    public RelayedConnection(Channel channel, Backend backend, BackendIdentity identity, String schema) {
        super(channel, backend, identity, schema, INSPECT_LIMIT);
    }

    /**
     * Resets the connection (COM_RESET_CONNECTION) for another session and makes it what a fresh
     * login with the same handshake would be; {@code onDone} gets whether it is fit to be reused.
     *
     * <p>The reset puts the character set variables back to the server's globals, where a login
     * sets all three to the handshake's collation: they are set to it again, by number, which the
     * server looks up as it does the handshake's. The reset keeps the default schema, which the
     * relayed session may have changed unseen (USE, COM_INIT_DB, a multi-statement): it is read
     * back rather than guessed, so that the pool never hands a connection with a schema selected
     * to a session that logged in without one (COM_INIT_DB can select a schema, never unselect
     * one). Read as HEX(DATABASE()), the name does not depend on the result character set. The
     * three commands go out together: one round trip, as the reset alone would take.
     */
    void resetForNextSession(Consumer<Boolean> onDone) {
        int collation = identity.charset();
        String restore = "SET character_set_client = " + collation + ", character_set_results = " + collation
                + ", collation_connection = " + collation;
        boolean[] failed = {false};
        String[] learned = {null};
        Consumer<Response> checked = response -> failed[0] |= response.isError();
        long now = System.nanoTime();
        push(new InFlight(Commands.COM_RESET_CONNECTION, now, null, checked));
        push(new InFlight(Commands.COM_QUERY, now, null, checked));
        push(new InFlight(Commands.COM_QUERY, now, null, response -> {
            if (failed[0] || response.isError() || !isUsable()) {
                onDone.accept(false);
                return;
            }
            schema = learned[0];
            onDone.accept(true);
        }, row -> learned[0] = hexName(row)));
        channel.write(OwnCommands.resetConnection(channel.alloc()), channel.voidPromise());
        channel.write(OwnCommands.query(channel.alloc(), restore), channel.voidPromise());
        channel.writeAndFlush(OwnCommands.query(channel.alloc(), "SELECT HEX(DATABASE())"))
                .addListener(ChannelFutureListener.FIRE_EXCEPTION_ON_FAILURE);
    }

    /** The schema name in a row of HEX(DATABASE()), or null when none is selected. */
    private static String hexName(ByteBuf row) {
        String hex = Wire.readStringLenenc(row.duplicate());
        return hex == null ? null : new String(HexFormat.of().parseHex(hex), StandardCharsets.UTF_8);
    }

    @Override
    void inspect(InFlight head, int sequenceId, int length, ByteBuf payload, int endIndex) {
        if (head.rows() != null && tracker.lastPacketWasRow()) {
            head.rows().accept(payload);
        }
    }
}
