package dev.sluice.proxy.frontend;

import dev.sluice.config.SluiceConfig;
import dev.sluice.proxy.auth.ClientAuth;
import dev.sluice.proxy.backend.BackendConnector;
import dev.sluice.proxy.backend.Backends;
import dev.sluice.proxy.backend.ServerIdentity;
import dev.sluice.proxy.routing.Router;
import dev.sluice.proxy.session.SessionServices;
import dev.sluice.proxy.split.SplitBackends;
import io.netty.handler.ssl.SslContext;
import java.util.function.Supplier;

/**
 * What a client's login uses of the proxy: the live config, how passwords are checked, TLS both
 * ways, how backend connections are opened and which backend a session goes to, and, once it is
 * in, what its command phase needs and (split mode) where its statements can go.
 *
 * @param clientTls     TLS towards clients, or null when off
 * @param backendTls    TLS towards backends, or null when off
 * @param splitBackends where split-mode statements go; null in session mode
 * @param schemaProofs  split mode's logins' shared proofs that a backend takes the user and schema
 */
public record LoginServices(Supplier<SluiceConfig> config, ClientAuth auth, SslContext clientTls, SslContext backendTls,
                            BackendConnector connector, Router router, Backends backends, SessionServices sessions,
                            SplitBackends splitBackends, SchemaProofs schemaProofs) {

    public LoginServices(Supplier<SluiceConfig> config, ClientAuth auth, SslContext clientTls, SslContext backendTls,
                         BackendConnector connector, Router router, Backends backends, SessionServices sessions,
                         SplitBackends splitBackends) {
        this(config, auth, clientTls, backendTls, connector, router, backends, sessions, splitBackends,
                new SchemaProofs());
    }

    /** What the proxy's greeting claims to be: the last backend greeting seen. */
    public ServerIdentity serverIdentity() {
        ServerIdentity seen = connector.lastIdentity();
        return seen != null ? seen : ServerIdentity.UNKNOWN;
    }

    public boolean splitMode() {
        return splitBackends != null;
    }
}
