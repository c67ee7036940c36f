package dev.sluice.proxy.session;

import dev.sluice.config.SluiceConfig;
import dev.sluice.proxy.kill.Kills;
import dev.sluice.proxy.memory.MemoryBudget;
import dev.sluice.proxy.observe.Observers;
import dev.sluice.proxy.sql.SqlReaders;
import dev.sluice.proxy.stats.ProxyStats;
import java.util.function.Supplier;

/**
 * What every client session's command phase uses of the proxy, whichever way its statements find
 * their backends: the live config, KILL, the statement observers, the client connections (and
 * whether shutdown began), the proxy's counters, the memory large commands are held in and what
 * reading SQL reuses on each event loop.
 */
public record SessionServices(Supplier<SluiceConfig> config, Kills kills, Observers observers,
                              ClientConnections clients, ProxyStats stats, MemoryBudget bufferedMemory,
                              SqlReaders sqlReaders) {
}
