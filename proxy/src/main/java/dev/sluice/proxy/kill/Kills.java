package dev.sluice.proxy.kill;

import dev.sluice.config.SluiceConfig;
import dev.sluice.proxy.backend.Connector;
import dev.sluice.proxy.backend.KillConnections;
import java.util.function.Supplier;

/**
 * What running a KILL needs: the sessions a KILL may name, the connections KILLs are sent on and
 * how new ones log in, and the live config (timeouts.query kills statements too).
 */
public record Kills(LiveSessions sessions, KillConnections connections, Connector connector,
                    Supplier<SluiceConfig> config) {
}
