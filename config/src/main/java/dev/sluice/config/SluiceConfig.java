package dev.sluice.config;

import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * The whole proxy configuration, immutable and valid by construction. A config loaded from a file
 * or built by {@link QuickStart} always has at least one backend; {@link #defaults()} has none, for
 * callers that add them with {@link #withBackends}.
 *
 * @param listen     where clients connect
 * @param users      accounts the proxy authenticates; none means pass-through auth
 * @param backends   MySQL servers, unique by name
 * @param eventLoops Netty event loop threads; 0 means one per core
 * @param admin      the admin ports (HTTP and MySQL protocol)
 * @param health     health checks of the backends
 * @param stats      what is counted beyond the per-backend figures
 * @param capture    what is written down about the statements carried (off by default)
 * @param proxyProtocolNetworks where load balancers connect from: a connection from these networks
 *                   starts with a PROXY protocol header naming the real client; none means no
 *                   connection may send one
 * @param mirror     copies of statements to a shadow server, compared with the answers clients got (off by default)
 */
public record SluiceConfig(
        HostPort listen,
        List<UserConfig> users,
        List<BackendConfig> backends,
        RoutingConfig routing,
        LimitsConfig limits,
        TimeoutsConfig timeouts,
        TlsConfig tls,
        int eventLoops,
        AdminConfig admin,
        HealthConfig health,
        StatsConfig stats,
        CaptureConfig capture,
        List<IpNetwork> proxyProtocolNetworks,
        MirrorConfig mirror) {

    /** Split mode moves a session's statements between backend connections, which it logs into itself. */
    static final String SPLIT_NEEDS_USERS = "split needs users: the proxy logs into the backends itself to move"
            + " statements between connections";

    public SluiceConfig {
        Objects.requireNonNull(listen, "listen");
        users = List.copyOf(users);
        backends = List.copyOf(backends);
        Objects.requireNonNull(routing, "routing");
        Objects.requireNonNull(limits, "limits");
        Objects.requireNonNull(timeouts, "timeouts");
        Objects.requireNonNull(tls, "tls");
        Objects.requireNonNull(admin, "admin");
        Objects.requireNonNull(health, "health");
        Objects.requireNonNull(stats, "stats");
        Objects.requireNonNull(capture, "capture");
        proxyProtocolNetworks = List.copyOf(proxyProtocolNetworks);
        Objects.requireNonNull(mirror, "mirror");
        if (mirror.enabled() && mirror.user().isEmpty() && users.isEmpty()) {
            throw new IllegalArgumentException("mirror.user: missing (expected: the account to log into the shadow as,"
                    + " with mirror.password, when no users are configured)");
        }
        requireUniqueNames("users", users, UserConfig::name);
        requireUniqueNames("backends", backends, BackendConfig::name);
        if (eventLoops < 0) {
            throw new IllegalArgumentException("event_loops: " + eventLoops + " is out of range (expected: an integer >= 0)");
        }
        if (!backends.isEmpty()) {
            checkRouting(routing, backends);
        }
        String discovery = discoveryProblem(backends, users, health);
        if (discovery != null) {
            throw new IllegalArgumentException("backends: " + discovery);
        }
        String preferred = routing.preferredPrimary().orElse(null);
        if (preferred != null && backends.stream().noneMatch(b -> b.isAuto() && b.name().equals(preferred))) {
            throw new IllegalArgumentException("routing.preferred_primary: " + Messages.quote(preferred)
                    + " is not a backend with role auto");
        }
        if (routing.mode() == RoutingConfig.Mode.SPLIT && users.isEmpty()) {
            throw new IllegalArgumentException("routing.mode: " + SPLIT_NEEDS_USERS);
        }
    }

    /**
     * A config built in code: no admin ports and no health checks (a file or the quick-start flags
     * get both by default), default stats.
     */
    public SluiceConfig(HostPort listen, List<UserConfig> users, List<BackendConfig> backends, RoutingConfig routing,
                        LimitsConfig limits, TimeoutsConfig timeouts, TlsConfig tls, int eventLoops) {
        this(listen, users, backends, routing, limits, timeouts, tls, eventLoops, AdminConfig.disabled(),
                HealthConfig.disabled(), StatsConfig.defaults(), CaptureConfig.defaults());
    }

    /** As the canonical constructor, with no PROXY protocol networks. */
    public SluiceConfig(HostPort listen, List<UserConfig> users, List<BackendConfig> backends, RoutingConfig routing,
                        LimitsConfig limits, TimeoutsConfig timeouts, TlsConfig tls, int eventLoops, AdminConfig admin,
                        HealthConfig health, StatsConfig stats, CaptureConfig capture) {
        this(listen, users, backends, routing, limits, timeouts, tls, eventLoops, admin, health, stats, capture, List.of());
    }

    /** As the canonical constructor, with mirroring off. */
    public SluiceConfig(HostPort listen, List<UserConfig> users, List<BackendConfig> backends, RoutingConfig routing,
                        LimitsConfig limits, TimeoutsConfig timeouts, TlsConfig tls, int eventLoops, AdminConfig admin,
                        HealthConfig health, StatsConfig stats, CaptureConfig capture,
                        List<IpNetwork> proxyProtocolNetworks) {
        this(listen, users, backends, routing, limits, timeouts, tls, eventLoops, admin, health, stats, capture,
                proxyProtocolNetworks, MirrorConfig.off());
    }

    /** As the canonical constructor, with capture off. */
    public SluiceConfig(HostPort listen, List<UserConfig> users, List<BackendConfig> backends, RoutingConfig routing,
                        LimitsConfig limits, TimeoutsConfig timeouts, TlsConfig tls, int eventLoops, AdminConfig admin,
                        HealthConfig health, StatsConfig stats) {
        this(listen, users, backends, routing, limits, timeouts, tls, eventLoops, admin, health, stats,
                CaptureConfig.defaults());
    }

    /**
     * Default settings and no users or backends. For embedding and tests, the admin ports and health
     * checks are off here (see {@link #withAdmin} and {@link #withHealth}); a config file or the
     * quick-start flags turn both on by default.
     */
    public static SluiceConfig defaults() {
        return new SluiceConfig(HostPort.defaultListen(), List.of(), List.of(), RoutingConfig.defaults(),
                LimitsConfig.defaults(), TimeoutsConfig.defaults(), TlsConfig.defaults(), 0);
    }

    /** No users configured: the proxy relays the client's handshake to the backend it picked. */
    public boolean passThroughAuth() {
        return users.isEmpty();
    }

    /** Looked up at every login: a loop, as a stream's pipeline is two dozen methods for the JIT to compile. */
    public Optional<UserConfig> user(String name) {
        for (UserConfig user : users) {
            if (user.name().equals(name)) {
                return Optional.of(user);
            }
        }
        return Optional.empty();
    }

    public Optional<BackendConfig> backend(String name) {
        return backends.stream().filter(b -> b.name().equals(name)).findFirst();
    }

    public SluiceConfig withListen(HostPort newListen) {
        return new SluiceConfig(newListen, users, backends, routing, limits, timeouts, tls, eventLoops, admin, health, stats,
                capture, proxyProtocolNetworks, mirror);
    }

    public SluiceConfig withEventLoops(int newEventLoops) {
        return new SluiceConfig(listen, users, backends, routing, limits, timeouts, tls, newEventLoops, admin, health, stats,
                capture, proxyProtocolNetworks, mirror);
    }

    public SluiceConfig withUsers(List<UserConfig> newUsers) {
        return new SluiceConfig(listen, newUsers, backends, routing, limits, timeouts, tls, eventLoops, admin, health, stats,
                capture, proxyProtocolNetworks, mirror);
    }

    public SluiceConfig withBackends(List<BackendConfig> newBackends) {
        return new SluiceConfig(listen, users, newBackends, routing, limits, timeouts, tls, eventLoops, admin, health, stats,
                capture, proxyProtocolNetworks, mirror);
    }

    public SluiceConfig withAdmin(AdminConfig newAdmin) {
        return new SluiceConfig(listen, users, backends, routing, limits, timeouts, tls, eventLoops, newAdmin, health, stats,
                capture, proxyProtocolNetworks, mirror);
    }

    public SluiceConfig withHealth(HealthConfig newHealth) {
        return new SluiceConfig(listen, users, backends, routing, limits, timeouts, tls, eventLoops, admin, newHealth, stats,
                capture, proxyProtocolNetworks, mirror);
    }

    public SluiceConfig withStats(StatsConfig newStats) {
        return new SluiceConfig(listen, users, backends, routing, limits, timeouts, tls, eventLoops, admin, health, newStats,
                capture, proxyProtocolNetworks, mirror);
    }

    public SluiceConfig withCapture(CaptureConfig newCapture) {
        return new SluiceConfig(listen, users, backends, routing, limits, timeouts, tls, eventLoops, admin, health, stats,
                newCapture, proxyProtocolNetworks, mirror);
    }

    public SluiceConfig withProxyProtocolNetworks(List<IpNetwork> networks) {
        return new SluiceConfig(listen, users, backends, routing, limits, timeouts, tls, eventLoops, admin, health, stats,
                capture, networks, mirror);
    }

    public SluiceConfig withMirror(MirrorConfig newMirror) {
        return new SluiceConfig(listen, users, backends, routing, limits, timeouts, tls, eventLoops, admin, health, stats,
                capture, proxyProtocolNetworks, newMirror);
    }

    /** Whether a client connecting from {@code address} must start with a PROXY protocol header. */
    public boolean proxyProtocolTrusted(java.net.InetAddress address) {
        for (IpNetwork network : proxyProtocolNetworks) {
            if (network.contains(address)) {
                return true;
            }
        }
        return false;
    }

    public SluiceConfig withRouting(RoutingConfig newRouting) {
        return new SluiceConfig(listen, users, backends, newRouting, limits, timeouts, tls, eventLoops, admin, health,
                stats, capture, proxyProtocolNetworks, mirror);
    }

    public SluiceConfig withLimits(LimitsConfig newLimits) {
        return new SluiceConfig(listen, users, backends, routing, newLimits, timeouts, tls, eventLoops, admin, health,
                stats, capture, proxyProtocolNetworks, mirror);
    }

    public SluiceConfig withTimeouts(TimeoutsConfig newTimeouts) {
        return new SluiceConfig(listen, users, backends, routing, limits, newTimeouts, tls, eventLoops, admin, health,
                stats, capture, proxyProtocolNetworks, mirror);
    }

    public SluiceConfig withTls(TlsConfig newTls) {
        return new SluiceConfig(listen, users, backends, routing, limits, timeouts, newTls, eventLoops, admin, health,
                stats, capture, proxyProtocolNetworks, mirror);
    }

    private static <T> void requireUniqueNames(String key, List<T> items, Function<T, String> name) {
        Set<String> seen = new HashSet<>();
        for (T item : items) {
            Objects.requireNonNull(item, key);
            if (!seen.add(name.apply(item))) {
                throw new IllegalArgumentException(key + ": duplicate name " + Messages.quote(name.apply(item))
                        + " (expected: unique names)");
            }
        }
    }

    /** Balancers only pick backends with weight above 0, so some backend must have one. */
    private static void checkRouting(RoutingConfig routing, List<BackendConfig> backends) {
        if (backends.stream().allMatch(b -> b.weight() == 0)) {
            throw new IllegalArgumentException("backends: every weight is 0 (expected: at least one backend with weight > 0)");
        }
        if (routing.mode() == RoutingConfig.Mode.SPLIT && backends.stream().noneMatch(b -> !b.isReplica() && b.weight() > 0)) {
            throw new IllegalArgumentException("routing.mode: split needs a backend with role primary (or auto) and"
                    + " weight > 0 to take writes");
        }
    }

    /**
     * Why these backends' {@code role: auto} cannot work, or null when it can (or none has it): the
     * role is read from {@code @@read_only} by the health checks, and a fixed primary beside auto
     * ones would be a writer the discovery cannot stop.
     */
    static String discoveryProblem(List<BackendConfig> backends, List<UserConfig> users, HealthConfig health) {
        if (backends.stream().noneMatch(BackendConfig::isAuto)) {
            return null;
        }
        List<String> fixed = backends.stream().filter(BackendConfig::isPrimary).map(BackendConfig::name).toList();
        if (!fixed.isEmpty()) {
            return "role primary (" + String.join(", ", fixed) + ") and role auto cannot be mixed: with auto, the"
                    + " primary is whichever backend has read_only off (expected: auto for every backend that may"
                    + " take writes, replica for the others)";
        }
        if (!health.enabled()) {
            return "role auto needs the health checks, which read each backend's @@read_only (found: health.enabled:"
                    + " false)";
        }
        if (health.user().isEmpty() && users.isEmpty()) {
            return "role auto needs the health checks, which need an account (found: no health.user and no users)";
        }
        return null;
    }
}
