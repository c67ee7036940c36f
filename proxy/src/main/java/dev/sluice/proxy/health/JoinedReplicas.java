package dev.sluice.proxy.health;

import dev.sluice.config.BackendConfig;
import dev.sluice.config.HostPort;
import dev.sluice.config.RoutingConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.proxy.backend.Backend;
import dev.sluice.proxy.probe.OwnConnection;
import dev.sluice.proxy.probe.QueryResult;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.Promise;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code routing.discover: replica_hosts}: the replicas the primary lists in its
 * {@code SHOW SLAVE HOSTS} join the configured backends, with {@code role: auto} (a replica
 * promoted later takes the writes like any other) and the primary's max_connections and PROXY
 * protocol setting. A replica is listed only with the address it reports (report_host,
 * report_port); one listed without a host cannot be reached and is logged once. A replica leaves
 * after {@link #ASKS_BEFORE_LEAVING} asks in a row without it, since one that restarts or
 * reconnects drops out of the list for a moment. Runs on the health checker's loop only.
 */
final class JoinedReplicas {

    static final int ASKS_BEFORE_LEAVING = 3;

    private static final Logger log = LoggerFactory.getLogger(JoinedReplicas.class);

    private final Consumer<List<BackendConfig>> apply;
    /** By address, in the order they joined; the value counts the asks in a row without it. */
    private final Map<HostPort, Joined> joined = new LinkedHashMap<>();
    private final Set<String> unreachableLogged = new HashSet<>();
    private String query = "SHOW SLAVE HOSTS";
    private boolean failureLogged;

    private static final class Joined {
        final BackendConfig config;
        int missedAsks;

        Joined(BackendConfig config) {
            this.config = config;
        }
    }

    JoinedReplicas(Consumer<List<BackendConfig>> apply) {
        this.apply = apply;
    }

    /** Asks {@code primary} on its check connection who replicates from it; completes when done, never fails. */
    Future<Void> ask(OwnConnection connection, Backend primary, SluiceConfig config, Promise<Void> done) {
        if (config.routing().discover() != RoutingConfig.Discover.REPLICA_HOSTS) {
            if (!joined.isEmpty()) {
                log.info("routing.discover is no longer replica_hosts: {} joined backend(s) leave", joined.size());
                joined.clear();
                apply.accept(List.of());
            }
            return done.setSuccess(null);
        }
        String sql = query;
        connection.query(sql).addListener(answer -> {
            QueryResult result = answer.isSuccess() ? (QueryResult) answer.getNow() : null;
            if (result != null && result.isError() && result.errorCode() == 1064 && sql.contains("SLAVE")) {
                query = "SHOW REPLICAS"; // MySQL 8.4 dropped the old name
                ask(connection, primary, config, done);
                return;
            }
            if (result == null || result.isError()) {
                if (!failureLogged) {
                    failureLogged = true;
                    log.warn("{} on backend {} failed, no replica joins until it works (the check account needs"
                            + " REPLICATION MASTER ADMIN or REPLICATION SLAVE): {}", sql, primary.name(),
                            result == null ? answer.cause().getMessage() : result.errorCode() + " " + result.errorMessage());
                }
            } else {
                failureLogged = false;
                seen(result.rows(), primary, config.backends());
            }
            done.setSuccess(null);
        });
        return done;
    }

    /** One answer of the primary: replicas listed join, those missing too long leave. */
    void seen(List<Map<String, String>> rows, Backend primary, List<BackendConfig> configured) {
        Set<HostPort> listed = new LinkedHashSet<>();
        for (Map<String, String> row : rows) {
            HostPort address = address(row);
            if (address == null) {
                if (unreachableLogged.add(row.get("Server_id"))) {
                    log.warn("replica with server_id {} is listed by {} without an address to reach it: start it with"
                            + " report_host (and report_port) for it to join", row.get("Server_id"), primary.name());
                }
                continue;
            }
            listed.add(address);
        }
        boolean changed = false;
        for (HostPort address : listed) {
            boolean isConfigured = configured.stream().anyMatch(c -> c.address().equals(address)
                    || c.name().equals(address.toString()));
            Joined known = joined.get(address);
            if (isConfigured) {
                changed |= joined.remove(address) != null;
            } else if (known != null) {
                known.missedAsks = 0;
            } else {
                BackendConfig own = primary.config();
                joined.put(address, new Joined(new BackendConfig(address.toString(), address, BackendConfig.Role.AUTO,
                        BackendConfig.DEFAULT_WEIGHT, own.maxConnections(), own.sendProxyProtocol())));
                log.info("backend {} joins: {} lists it in {}", address, primary.name(), query);
                changed = true;
            }
        }
        for (var it = joined.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<HostPort, Joined> entry = it.next();
            if (!listed.contains(entry.getKey()) && ++entry.getValue().missedAsks >= ASKS_BEFORE_LEAVING) {
                log.info("backend {} leaves: {} has not listed it for {} checks", entry.getKey(), primary.name(),
                        ASKS_BEFORE_LEAVING);
                it.remove();
                changed = true;
            }
        }
        if (changed) {
            apply.accept(joined.values().stream().map(j -> j.config).toList());
        }
    }

    /** The address a row of SHOW SLAVE HOSTS / SHOW REPLICAS reports, or null when it names none. */
    static HostPort address(Map<String, String> row) {
        String host = row.get("Host");
        String port = row.get("Port");
        if (host == null || host.isBlank() || port == null) {
            return null;
        }
        try {
            int number = Integer.parseInt(port.trim());
            return number > 0 ? new HostPort(host.trim(), number) : null;
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
