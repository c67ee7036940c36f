package dev.sluice.protocol.auth;

import dev.sluice.protocol.ProtocolException;
import dev.sluice.protocol.packet.AuthSwitchRequest;
import java.util.Arrays;

/**
 * The server side of a whole login after HandshakeResponse41: runs the account's plugin, first
 * switching the client to it with AuthSwitchRequest when it answered the greeting with another
 * one (https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_connection_phase.html).
 * The switch reuses the greeting's seed, as MySQL and MariaDB do.
 */
public final class ServerAuthExchange {

    /** ER_NOT_SUPPORTED_AUTH_MODE, for a client without CLIENT_PLUGIN_AUTH that cannot be switched. */
    public static final int NOT_SUPPORTED_AUTH_MODE = 1251;

    private final ServerLogin login;
    private final AuthPlugin accountPlugin;
    private ServerAuth active;
    private boolean started;
    private boolean ended;

    /**
     * @param accountPlugin the plugin the account authenticates with (for an unknown user, the
     *                      proxy's default, so it looks like any other account); an account known
     *                      only by its mysql_native_password hash always uses that plugin, the only
     *                      one that can check a client against the hash
     */
    public ServerAuthExchange(AuthPlugins plugins, ServerLogin login, String accountPlugin) {
        this.login = login;
        boolean hashOnly = login.knownUser() && !login.credential().isPassword();
        this.accountPlugin = plugins.require(hashOnly ? MysqlNativePassword.NAME : accountPlugin);
    }

    /**
     * The first step, from HandshakeResponse41.
     *
     * @param clientPlugin the client's plugin name, or null when it did not set CLIENT_PLUGIN_AUTH
     *                     (such a client speaks mysql_native_password only)
     * @param authResponse the client's auth response
     */
    public ServerStep start(String clientPlugin, byte[] authResponse) {
        if (started) {
            throw new IllegalStateException("start was called twice for " + login);
        }
        started = true;
        if (accountPlugin.name().equals(clientPlugin == null ? MysqlNativePassword.NAME : clientPlugin)) {
            active = accountPlugin.startServer(login);
            return track(active.onClientData(authResponse));
        }
        if (clientPlugin == null) {
            return track(new ServerStep.Reject(NOT_SUPPORTED_AUTH_MODE, "08004",
                    "Client does not support authentication protocol requested by server; consider upgrading MySQL client"));
        }
        return new ServerStep.Reply(authSwitchRequest(accountPlugin.name(), login.seed()));
    }

    /**
     * Every client packet after HandshakeResponse41, until a terminal step.
     *
     * @throws ProtocolException for a packet after the login ended
     */
    public ServerStep onClientData(byte[] payload) {
        if (!started) {
            throw new IllegalStateException("onClientData before start for " + login);
        }
        if (ended) {
            throw new ProtocolException("client packet of " + payload.length + " bytes after the login ended in phase AUTH");
        }
        if (active == null) {
            active = accountPlugin.startServer(login);
        }
        return track(active.onClientData(payload));
    }

    /** True when {@link #onClientData} would do private-key work on {@code payload} (see {@link ServerAuth#costly}). */
    public boolean costly(byte[] payload) {
        return active != null && !ended && active.costly(payload);
    }

    /** The plugin the login runs (after any switch). */
    public String pluginName() {
        return accountPlugin.name();
    }

    private ServerStep track(ServerStep step) {
        ended = !(step instanceof ServerStep.Reply);
        return step;
    }

    /** AuthSwitchRequest with the seed and a NUL as plugin data, as MySQL sends it. */
    static byte[] authSwitchRequest(String plugin, byte[] seed) {
        byte[] pluginData = Arrays.copyOf(seed, seed.length + 1);
        return Payloads.encode(new AuthSwitchRequest(plugin, pluginData));
    }
}
