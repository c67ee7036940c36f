package dev.sluice.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.NodeTuple;
import org.snakeyaml.engine.v2.nodes.SequenceNode;

/**
 * Walks a composed YAML document into a {@link SluiceConfig}. Each value is checked where it is
 * read, so its problem carries its own line; records are built only from sections that read
 * cleanly, and their cross-field checks are reported at the section.
 */
final class ConfigReader {

    static final List<String> TOP_KEYS =
            List.of("listen", "users", "backends", "routing", "limits", "timeouts", "tls", "event_loops", "admin", "health",
                    "stats", "capture", "proxy_protocol_networks", "mirror");
    static final List<String> USER_KEYS = List.of("name", "password", "password_hash");
    static final List<String> BACKEND_KEYS = List.of("name", "address", "role", "weight", "max_connections",
            "send_proxy_protocol");
    static final List<String> ROUTING_KEYS = List.of("mode", "balancer", "read_your_writes", "read_your_writes_scope",
            "primary_window", "gtid_wait_timeout", "discover", "preferred_primary", "rules", "transaction_replay",
            "transaction_replay_max_size", "reuse_backend_connections");
    static final List<String> RULE_KEYS = List.of("match", "digest", "route");
    static final List<String> LIMITS_KEYS =
            List.of("max_client_connections", "backend_queue_size", "allow_local_infile", "max_packet_size",
                    "failed_logins_before_delay", "buffered_memory");
    static final List<String> TIMEOUTS_KEYS =
            List.of("connect", "handshake", "client_idle", "backend_queue", "pool_idle", "shutdown", "backend_retry",
                    "query", "primary_wait");

    private static final String HOST_PORT = "host:port";
    private static final Duration SOME = Duration.ofMillis(1);

    private final Problems problems;
    private final EnvInterpolator env;
    private final Path baseDir;

    ConfigReader(Problems problems, EnvInterpolator env, Path baseDir) {
        this.problems = problems;
        this.env = env;
        this.baseDir = baseDir;
    }

    SluiceConfig read(Node root) {
        YamlMapping top = YamlMapping.open(root, "", TOP_KEYS, problems, env);
        HostPort listen = top.scalar("listen", HOST_PORT).flatMap(v -> v.convert(HostPort::parse))
                .orElse(HostPort.defaultListen());
        List<IpNetwork> proxyProtocolNetworks = readNetworks(top, "proxy_protocol_networks");
        List<UserConfig> users = readUsers(top);
        YamlMapping routingSection = top.section("routing", ROUTING_KEYS);
        Optional<YamlScalar> discoverValue = routingSection.scalar("discover", "off, read_only or replica_hosts");
        RoutingConfig.Discover discover = discoverValue.flatMap(v -> v.enumValue(RoutingConfig.Discover.class))
                .orElse(RoutingConfig.Discover.OFF);
        List<BackendConfig> backends = readBackends(top, discover.readsRoles()
                ? BackendConfig.Role.AUTO : BackendConfig.Role.PRIMARY);
        RoutingConfig routing = readRouting(routingSection, backends, users, discover);
        LimitsConfig limits = readLimits(top.section("limits", LIMITS_KEYS));
        TimeoutsConfig timeouts = readTimeouts(top.section("timeouts", TIMEOUTS_KEYS));
        TlsConfig tls = new TlsReader(problems, baseDir).read(top.section("tls", TlsReader.TLS_KEYS));
        int eventLoops = top.scalar("event_loops", "an integer >= 0")
                .flatMap(v -> v.integer(0, Integer.MAX_VALUE)).orElse(0);
        OperationsReader operations = new OperationsReader(problems);
        AdminConfig admin = operations.readAdmin(top.section("admin", OperationsReader.ADMIN_KEYS));
        HealthConfig health = operations.readHealth(top.section("health", OperationsReader.HEALTH_KEYS));
        new DiscoveryChecks(problems).check(top, routingSection, discoverValue, backends, users, health);
        StatsConfig stats = operations.readStats(top.section("stats", OperationsReader.STATS_KEYS));
        CaptureConfig capture = new CaptureReader(problems, env, baseDir).read(top.section("capture", CaptureReader.KEYS));
        MirrorConfig mirror = new MirrorReader(problems).read(top.section("mirror", MirrorReader.KEYS));
        problems.throwIfAny();
        SluiceConfig config = top.build(problems.count(), () -> new SluiceConfig(listen, users, backends, routing, limits,
                timeouts, tls, eventLoops, admin, health, stats, capture, proxyProtocolNetworks, mirror), null);
        problems.throwIfAny();
        return config;
    }

    private List<IpNetwork> readNetworks(YamlMapping top, String key) {
        List<IpNetwork> networks = new ArrayList<>();
        List<Node> items = top.list(key, "IP addresses or networks, e.g. [10.0.0.0/8, 192.168.1.7]");
        for (int i = 0; i < items.size(); i++) {
            YamlMapping.scalar(items.get(i), key + "[" + i + "]", IpNetwork.EXPECTED, problems, env)
                    .flatMap(v -> v.convert(IpNetwork::parse)).ifPresent(networks::add);
        }
        return networks;
    }

    private List<UserConfig> readUsers(YamlMapping top) {
        List<UserConfig> users = new ArrayList<>();
        Map<String, Integer> firstLine = new HashMap<>();
        List<Node> items = top.list("users", "users with name and password (or password_hash)");
        for (int i = 0; i < items.size(); i++) {
            int before = problems.count();
            YamlMapping user = YamlMapping.open(items.get(i), "users[" + i + "]", USER_KEYS, problems, env);
            Optional<YamlScalar> name = user.required("name", "a user name");
            name.flatMap(YamlScalar::name).ifPresent(n -> unique(firstLine, n, name.get(), "user"));
            Optional<UserSecret> secret = readSecret(user);
            UserConfig built = user.build(before, () -> new UserConfig(name.get().text(), secret.get().password(),
                    secret.get().hash()), null);
            if (built != null) {
                users.add(built);
            }
        }
        return users;
    }

    /** One of password and password_hash, as written. */
    private record UserSecret(String password, String hash) {
    }

    private Optional<UserSecret> readSecret(YamlMapping user) {
        NodeTuple password = user.entry("password");
        NodeTuple hash = user.entry("password_hash");
        if (password != null && hash != null) {
            problems.at(hash.getKeyNode(), user.pathOf("password_hash"), "given with password (line "
                    + YamlMapping.line(password.getKeyNode()) + ") (expected: password or password_hash, not both)");
            return Optional.empty();
        }
        if (hash != null) {
            return user.required("password_hash", UserConfig.HASH_SHAPE)
                    .flatMap(v -> v.convert(UserConfig::checkHash)).map(h -> new UserSecret(null, h));
        }
        if (password == null) {
            user.missing("password", "a password (\"\" for an empty one) or password_hash");
            return Optional.empty();
        }
        return user.required("password", "a password; write \"\" for an empty one")
                .map(v -> new UserSecret(v.text(), null));
    }

    private List<BackendConfig> readBackends(YamlMapping top, BackendConfig.Role defaultRole) {
        NodeTuple entry = top.entry("backends");
        if (entry == null) {
            top.missing("backends", "a list of backends, at least one");
            return List.of();
        }
        List<Node> items = top.list("backends", "backends, each with an address");
        if (items.isEmpty() && (YamlMapping.isNull(entry.getValueNode()) || entry.getValueNode() instanceof SequenceNode)) {
            problems.at(entry.getKeyNode(), "backends", "no backends (expected: at least one backend)");
        }
        List<BackendConfig> backends = new ArrayList<>();
        Map<String, Integer> firstLine = new HashMap<>();
        for (int i = 0; i < items.size(); i++) {
            readBackend(items.get(i), "backends[" + i + "]", firstLine, defaultRole).ifPresent(backends::add);
        }
        if (!backends.isEmpty() && backends.size() == items.size() && backends.stream().allMatch(b -> b.weight() == 0)) {
            problems.at(entry.getKeyNode(), "backends",
                    "every weight is 0 (expected: at least one backend with weight > 0, as balancers skip weight 0)");
        }
        return backends;
    }

    private Optional<BackendConfig> readBackend(Node item, String path, Map<String, Integer> firstLine,
                                                BackendConfig.Role defaultRole) {
        int before = problems.count();
        YamlMapping backend = YamlMapping.open(item, path, BACKEND_KEYS, problems, env);
        Optional<HostPort> address = backend.required("address", HOST_PORT)
                .flatMap(v -> v.convert(Scalars::backendAddress));
        Optional<YamlScalar> explicitName = backend.scalar("name", "a backend name");
        Optional<String> name = explicitName.isPresent() ? explicitName.get().name() : address.map(HostPort::toString);
        BackendConfig.Role role = backend.scalar("role", "primary, replica or auto")
                .flatMap(v -> v.enumValue(BackendConfig.Role.class)).orElse(defaultRole);
        int weight = backend.scalar("weight", "an integer >= 0")
                .flatMap(v -> v.integer(0, Integer.MAX_VALUE)).orElse(BackendConfig.DEFAULT_WEIGHT);
        int maxConnections = backend.scalar("max_connections", "an integer > 0")
                .flatMap(v -> v.integer(1, Integer.MAX_VALUE)).orElse(BackendConfig.DEFAULT_MAX_CONNECTIONS);
        boolean sendProxyProtocol = backend.scalar("send_proxy_protocol", "true or false")
                .flatMap(YamlScalar::bool).orElse(false);
        if (name.isPresent() && problems.count() == before) {
            if (explicitName.isPresent()) {
                unique(firstLine, name.get(), explicitName.get(), "backend");
            } else if (firstLine.containsKey(name.get())) {
                backend.fail("duplicate backend name " + Messages.quote(name.get()) + " (first at line "
                        + firstLine.get(name.get()) + "; the name comes from the address: set name to tell them apart)");
            } else {
                firstLine.put(name.get(), YamlMapping.line(backend.node()));
            }
        }
        return Optional.ofNullable(backend.build(before,
                () -> new BackendConfig(name.get(), address.get(), role, weight, maxConnections, sendProxyProtocol), null));
    }

    private void unique(Map<String, Integer> firstLine, String name, YamlScalar at, String what) {
        Integer first = firstLine.putIfAbsent(name, at.line());
        if (first != null) {
            at.fail("duplicate " + what + " name " + Messages.quote(name) + " (first at line " + first + ")");
        }
    }

    private RoutingConfig readRouting(YamlMapping routing, List<BackendConfig> backends, List<UserConfig> users,
                                      RoutingConfig.Discover discover) {
        Optional<YamlScalar> modeValue = routing.scalar("mode", "session or split");
        Optional<YamlScalar> balancerValue = routing.scalar("balancer", "a balancer name");
        RoutingConfig.Mode mode = modeValue.flatMap(v -> v.enumValue(RoutingConfig.Mode.class))
                .orElse(RoutingConfig.Mode.SESSION);
        RoutingConfig.Balancer balancer = balancerValue.flatMap(v -> v.enumValue(RoutingConfig.Balancer.class))
                .orElse(RoutingConfig.Balancer.ROUND_ROBIN);
        if (!backends.isEmpty() && mode == RoutingConfig.Mode.SPLIT
                && backends.stream().noneMatch(b -> !b.isReplica() && b.weight() > 0)) {
            modeValue.ifPresent(v -> v.fail("split needs a backend with role primary (or auto) and weight > 0 to take"
                    + " writes (found: " + (backends.stream().anyMatch(b -> !b.isReplica())
                            ? "every primary has weight 0" : "only replicas") + ")"));
        }
        if (mode == RoutingConfig.Mode.SPLIT && users.isEmpty()) {
            modeValue.ifPresent(v -> v.fail(SluiceConfig.SPLIT_NEEDS_USERS + " (found: no users, which means pass-through auth)"));
        }
        RoutingConfig.ReadYourWrites readYourWrites = routing.scalar("read_your_writes", "off, gtid or primary_window")
                .flatMap(v -> v.enumValue(RoutingConfig.ReadYourWrites.class)).orElse(RoutingConfig.ReadYourWrites.OFF);
        RoutingConfig.ReadYourWritesScope scope = routing.scalar("read_your_writes_scope", "session, user or global")
                .flatMap(v -> v.enumValue(RoutingConfig.ReadYourWritesScope.class))
                .orElse(RoutingConfig.ReadYourWritesScope.SESSION);
        Optional<String> preferredPrimary = routing.scalar("preferred_primary", "a backend name").flatMap(YamlScalar::name);
        Duration primaryWindow = routing.scalar("primary_window", "a duration")
                .flatMap(v -> v.duration(Duration.ofMillis(1), Duration.ofHours(1)))
                .orElse(RoutingConfig.DEFAULT_PRIMARY_WINDOW);
        Duration gtidWait = routing.scalar("gtid_wait_timeout", "a duration")
                .flatMap(v -> v.duration(Duration.ofMillis(1), Duration.ofMinutes(1)))
                .orElse(RoutingConfig.DEFAULT_GTID_WAIT_TIMEOUT);
        boolean replay = routing.scalar("transaction_replay", "true or false").flatMap(YamlScalar::bool).orElse(false);
        long replayMaxSize = routing.scalar("transaction_replay_max_size", ByteSizes.EXPECTED)
                .flatMap(v -> v.byteSize(0, LimitsConfig.MAX_PACKET_SIZE))
                .map(Integer::longValue).orElse(RoutingConfig.DEFAULT_TRANSACTION_REPLAY_MAX_SIZE);
        boolean reuse = routing.scalar("reuse_backend_connections", "true or false").flatMap(YamlScalar::bool)
                .orElse(true);
        return new RoutingConfig(mode, balancer, readYourWrites, primaryWindow, gtidWait, readRules(routing), scope,
                discover, preferredPrimary, replay, replayMaxSize, reuse);
    }

    private List<RoutingRule> readRules(YamlMapping routing) {
        List<RoutingRule> rules = new ArrayList<>();
        List<Node> items = routing.list("rules", "rules with match or digest, and route");
        for (int i = 0; i < items.size(); i++) {
            int before = problems.count();
            YamlMapping rule = YamlMapping.open(items.get(i), "routing.rules[" + i + "]", RULE_KEYS, problems, env);
            Optional<java.util.regex.Pattern> match = rule.scalar("match", "a regular expression")
                    .flatMap(v -> v.convert(text -> {
                        try {
                            return java.util.regex.Pattern.compile(text, java.util.regex.Pattern.CASE_INSENSITIVE);
                        } catch (java.util.regex.PatternSyntaxException e) {
                            throw new IllegalArgumentException(Messages.quote(text) + " is not a regular expression ("
                                    + e.getDescription() + ")");
                        }
                    }));
            Optional<String> digest = rule.scalar("digest", "16 hex digits").map(YamlScalar::text);
            Optional<RoutingRule.Route> route = rule.required("route", "primary or replica")
                    .flatMap(v -> v.enumValue(RoutingRule.Route.class));
            if (match.isEmpty() == digest.isEmpty() && problems.count() == before) {
                rule.fail("a rule needs exactly one of match and digest");
            }
            RoutingRule built = rule.build(before, () -> new RoutingRule(match.orElse(null), digest.orElse(null),
                    route.get()), null);
            if (built != null) {
                rules.add(built);
            }
        }
        return rules;
    }

    private LimitsConfig readLimits(YamlMapping limits) {
        int before = problems.count();
        int maxClients = limits.scalar("max_client_connections", "an integer > 0")
                .flatMap(v -> v.integer(1, Integer.MAX_VALUE)).orElse(LimitsConfig.DEFAULT_MAX_CLIENT_CONNECTIONS);
        int queueSize = limits.scalar("backend_queue_size", "an integer >= 0")
                .flatMap(v -> v.integer(0, Integer.MAX_VALUE)).orElse(maxClients);
        boolean localInfile = limits.scalar("allow_local_infile", "true or false")
                .flatMap(YamlScalar::bool).orElse(false);
        int maxPacket = limits.scalar("max_packet_size", ByteSizes.EXPECTED)
                .flatMap(v -> v.byteSize(LimitsConfig.MIN_PACKET_SIZE, LimitsConfig.MAX_PACKET_SIZE))
                .orElse(LimitsConfig.MAX_PACKET_SIZE);
        int failedLogins = limits.scalar("failed_logins_before_delay", "an integer >= 0")
                .flatMap(v -> v.integer(0, Integer.MAX_VALUE)).orElse(LimitsConfig.DEFAULT_FAILED_LOGINS_BEFORE_DELAY);
        int bufferedMemory = limits.scalar("buffered_memory", ByteSizes.EXPECTED)
                .flatMap(v -> v.byteSize(LimitsConfig.MIN_BUFFERED_MEMORY, LimitsConfig.MAX_PACKET_SIZE))
                .orElse(LimitsConfig.MAX_PACKET_SIZE);
        return limits.build(before, () -> new LimitsConfig(maxClients, queueSize, localInfile, maxPacket, failedLogins,
                        bufferedMemory),
                LimitsConfig.defaults());
    }

    private TimeoutsConfig readTimeouts(YamlMapping timeouts) {
        int before = problems.count();
        TimeoutsConfig defaults = TimeoutsConfig.defaults();
        Duration connect = duration(timeouts, "connect", SOME, TimeoutsConfig.MAX, defaults.connect());
        Duration handshake = duration(timeouts, "handshake", SOME, TimeoutsConfig.MAX, defaults.handshake());
        Duration clientIdle = duration(timeouts, "client_idle", SOME, TimeoutsConfig.MAX, defaults.clientIdle());
        Duration backendQueue = duration(timeouts, "backend_queue", Duration.ZERO, TimeoutsConfig.MAX, defaults.backendQueue());
        Duration poolIdle = duration(timeouts, "pool_idle", SOME, TimeoutsConfig.MAX, defaults.poolIdle());
        Duration shutdown = duration(timeouts, "shutdown", Duration.ZERO, TimeoutsConfig.MAX, defaults.shutdown());
        Duration backendRetry = duration(timeouts, "backend_retry", SOME, TimeoutsConfig.BACKEND_RETRY_CAP,
                defaults.backendRetry());
        Duration query = duration(timeouts, "query", Duration.ZERO, TimeoutsConfig.MAX, defaults.query());
        Duration primaryWait = duration(timeouts, "primary_wait", Duration.ZERO, TimeoutsConfig.MAX_PRIMARY_WAIT,
                defaults.primaryWait());
        return timeouts.build(before, () -> new TimeoutsConfig(connect, handshake, clientIdle, backendQueue, poolIdle,
                shutdown, backendRetry, query, primaryWait), defaults);
    }

    private static Duration duration(YamlMapping section, String key, Duration min, Duration max, Duration fallback) {
        return section.scalar(key, Durations.EXPECTED).flatMap(v -> v.duration(min, max)).orElse(fallback);
    }
}
