package dev.sluice.config;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** Reads the {@code admin}, {@code health} and {@code stats} sections: how the proxy is watched and run. */
final class OperationsReader {

    static final List<String> ADMIN_KEYS = List.of("enabled", "http", "sql", "user", "password", "http_token");
    static final List<String> HEALTH_KEYS = List.of("enabled", "interval", "timeout", "fail_after", "recover_after",
            "max_replication_lag", "user", "password");
    static final List<String> STATS_KEYS = List.of("digests", "max_digests", "metrics_digests");

    private static final String BOOLEAN = "true or false";
    private static final String HOST_PORT = "host:port";

    private final Problems problems;

    OperationsReader(Problems problems) {
        this.problems = problems;
    }

    AdminConfig readAdmin(YamlMapping admin) {
        int before = problems.count();
        AdminConfig defaults = AdminConfig.defaults();
        boolean enabled = admin.scalar("enabled", BOOLEAN).flatMap(YamlScalar::bool).orElse(defaults.enabled());
        HostPort http = admin.scalar("http", HOST_PORT).flatMap(v -> v.convert(HostPort::parse)).orElse(defaults.http());
        HostPort sql = admin.scalar("sql", HOST_PORT).flatMap(v -> v.convert(HostPort::parse)).orElse(defaults.sql());
        String user = admin.scalar("user", "a user name").flatMap(YamlScalar::name).orElse(defaults.user());
        String password = admin.scalar("password", "a password; write \"\" for an empty one").map(YamlScalar::text)
                .orElse(defaults.password());
        String httpToken = admin.scalar("http_token", "a token (say ${SLUICE_ADMIN_TOKEN})").map(YamlScalar::text)
                .orElse(defaults.httpToken());
        return admin.build(before, () -> new AdminConfig(enabled, http, sql, user, password, httpToken), defaults);
    }

    HealthConfig readHealth(YamlMapping health) {
        int before = problems.count();
        HealthConfig defaults = HealthConfig.defaults();
        boolean enabled = health.scalar("enabled", BOOLEAN).flatMap(YamlScalar::bool).orElse(defaults.enabled());
        Duration interval = health.scalar("interval", Durations.EXPECTED)
                .flatMap(v -> v.duration(HealthConfig.MIN_INTERVAL, HealthConfig.MAX_INTERVAL)).orElse(defaults.interval());
        Duration timeout = health.scalar("timeout", Durations.EXPECTED)
                .flatMap(v -> v.duration(Duration.ofMillis(10), HealthConfig.MAX_INTERVAL)).orElse(defaults.timeout());
        int failAfter = threshold(health, "fail_after", defaults.failAfter());
        int recoverAfter = threshold(health, "recover_after", defaults.recoverAfter());
        Duration maxLag = health.scalar("max_replication_lag", Durations.EXPECTED)
                .flatMap(v -> v.duration(Duration.ZERO, TimeoutsConfig.MAX)).orElse(defaults.maxReplicationLag());
        Optional<String> user = health.scalar("user", "a user name").flatMap(YamlScalar::name);
        Optional<String> password = health.scalar("password", "a password; write \"\" for an empty one")
                .map(YamlScalar::text);
        return health.build(before, () -> new HealthConfig(enabled, interval, timeout, failAfter, recoverAfter, maxLag,
                user, password), defaults);
    }

    StatsConfig readStats(YamlMapping stats) {
        int before = problems.count();
        StatsConfig defaults = StatsConfig.defaults();
        boolean digests = stats.scalar("digests", BOOLEAN).flatMap(YamlScalar::bool).orElse(defaults.digests());
        int maxDigests = stats.scalar("max_digests", Scalars.integerExpected(1, StatsConfig.MAX_DIGESTS))
                .flatMap(v -> v.integer(1, StatsConfig.MAX_DIGESTS)).orElse(defaults.maxDigests());
        int metricsDigests = stats.scalar("metrics_digests", Scalars.integerExpected(0, StatsConfig.MAX_METRICS_DIGESTS))
                .flatMap(v -> v.integer(0, StatsConfig.MAX_METRICS_DIGESTS)).orElse(defaults.metricsDigests());
        return stats.build(before, () -> new StatsConfig(digests, maxDigests, metricsDigests), defaults);
    }

    private static int threshold(YamlMapping section, String key, int fallback) {
        return section.scalar(key, Scalars.integerExpected(1, HealthConfig.MAX_THRESHOLD))
                .flatMap(v -> v.integer(1, HealthConfig.MAX_THRESHOLD)).orElse(fallback);
    }
}
