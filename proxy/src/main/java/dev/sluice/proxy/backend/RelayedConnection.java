package dev.sluice.proxy.backend;

import dev.sluice.protocol.Capabilities;
import dev.sluice.protocol.Commands;
import dev.sluice.protocol.response.Response;
import io.netty.channel.Channel;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A session-mode backend connection: one client session's for its whole life, its responses
 * relayed as they arrive, whatever their cuts, and nothing of the session's state tracked (the
 * client and the server keep it between them).
 */
public final class RelayedConnection extends BackendConnection {

    private static final Logger log = LoggerFactory.getLogger(RelayedConnection.class);
    /** ER_UNKNOWN_CHARACTER_SET. */
    private static final int UNKNOWN_CHARACTER_SET = 1115;
    /** OK, ERR, EOF, column count and prepare-OK all fit; longer packets are rows or data. */
    private static final int INSPECT_LIMIT = 1024;

    /** See {@link #schemaMayHaveChanged()}. */
    private boolean schemaUnknown;

    public RelayedConnection(Channel channel, Backend backend, BackendIdentity identity, String schema) {
        super(channel, backend, identity, schema, INSPECT_LIMIT);
    }

    /**
     * The session may have selected or dropped a schema (USE, COM_INIT_DB, DROP): what
     * {@link #schema()} says is no longer known to be true.
     */
    public void schemaMayHaveChanged() {
        schemaUnknown = true;
    }

    /**
     * Resets the connection (COM_RESET_CONNECTION) for another session and makes it what a fresh
     * login with the same handshake would be; {@code onDone} gets whether it is fit to be reused.
     *
     * <p>The reset puts the session variables back to the server's globals, and with them what the
     * login had set from the handshake: the character set variables, all three the handshake's
     * collation; IGNORE_SPACE in sql_mode for CLIENT_IGNORE_SPACE; wait_timeout from
     * interactive_timeout for CLIENT_INTERACTIVE. Those are set again, the collation by number,
     * which the server looks up as it does the handshake's (one it does not know gave the login
     * the globals too, and fails its SET harmlessly).
     *
     * <p>The reset keeps the default schema. When the session may have changed it, the schema
     * the connection had is selected again (COM_INIT_DB); failing that (dropped), it closes. A
     * connection that had none closes then: a schema can be selected but never unselected, and a
     * session that logged in without one must not get one. Reading DATABASE() back instead would
     * be a SELECT in the server's Com_select, which users compare with what their clients ran.
     * The commands go out together: one round trip, as the reset alone would take.
     */
    @Override
    void resetForNextSession(Consumer<Boolean> onDone) {
        if (schemaUnknown && schema == null) {
            onDone.accept(false);
            return;
        }
        int collation = identity.charset();
        boolean[] failed = {false};
        long now = System.nanoTime();
        push(new InFlight(Commands.COM_RESET_CONNECTION, now, null, response -> failed[0] |= notReused(response, false)));
        channel.write(OwnCommands.resetConnection(channel.alloc()), channel.voidPromise());
        String fromCapabilities = capabilityVariables(identity.capabilities());
        boolean selectAgain = schemaUnknown;
        Consumer<Boolean> finish = unfit -> {
            schemaUnknown = false;
            onDone.accept(!(failed[0] || unfit || !isUsable()));
        };
        Consumer<Response> last = response -> finish.accept(notReused(response, false));
        Consumer<Response> charsetDone = fromCapabilities == null && !selectAgain
                ? response -> finish.accept(notReused(response, true))
                : response -> failed[0] |= notReused(response, true);
        push(new InFlight(Commands.COM_QUERY, now, null, charsetDone));
        channel.write(OwnCommands.query(channel.alloc(), "SET character_set_client = " + collation
                + ", character_set_results = " + collation + ", collation_connection = " + collation), channel.voidPromise());
        if (fromCapabilities != null) {
            push(new InFlight(Commands.COM_QUERY, now, null,
                    selectAgain ? response -> failed[0] |= notReused(response, false) : last));
            channel.write(OwnCommands.query(channel.alloc(), fromCapabilities), channel.voidPromise());
        }
        if (selectAgain) {
            push(new InFlight(Commands.COM_INIT_DB, now, null, last));
            channel.write(OwnCommands.initDb(channel.alloc(), schema), channel.voidPromise());
        }
        channel.flush();
    }

    /** The SET that gives back what a login with {@code capabilities} sets from them, or null when none does. */
    static String capabilityVariables(long capabilities) {
        boolean ignoreSpace = Capabilities.has(capabilities, Capabilities.CLIENT_IGNORE_SPACE);
        boolean interactive = Capabilities.has(capabilities, Capabilities.CLIENT_INTERACTIVE);
        if (!ignoreSpace && !interactive) {
            return null;
        }
        StringBuilder set = new StringBuilder("SET ");
        if (ignoreSpace) {
            set.append("sql_mode = CONCAT_WS(',', NULLIF(@@global.sql_mode, ''), 'IGNORE_SPACE')");
        }
        if (interactive) {
            set.append(ignoreSpace ? ", " : "").append("wait_timeout = @@global.interactive_timeout");
        }
        return set.toString();
    }

    /**
     * Whether {@code response} makes the connection unfit for another session. A collation the
     * server does not know ({@code charset}: in the character set's SET) is no reason: the login
     * with it got the server's globals then, which is what the reset gives.
     */
    private boolean notReused(Response response, boolean charset) {
        if (!response.isError() || charset && response.errorCode() == UNKNOWN_CHARACTER_SET) {
            return false;
        }
        log.debug("backend {}: connection {} closes, not reused: {}", backend().name(), channel, response.errorMessage());
        return true;
    }
}
