package dev.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The admin, health and stats sections: values read, defaults, and errors with line and key. */
class OperationsConfigTest {

    private static final String ONE_BACKEND = "backends: [{address: \"127.0.0.1:3306\"}]\n";

    private static SluiceConfig parse(String yaml) {
        return ConfigLoader.parse(ONE_BACKEND + yaml, "sluice.yaml", Map.of("MON", "m0n"));
    }

    private static List<String> problems(String yaml) {
        ConfigException e = catchThrowableOfType(ConfigException.class, () -> parse(yaml));
        assertThat(e).as("a ConfigException for:\n" + yaml).isNotNull();
        return e.problems().stream().map(ConfigProblem::toString).toList();
    }

    @Test
    void readsEveryKey() {
        SluiceConfig config = parse("""
                admin:
                  enabled: false
                  http: 127.0.0.1:0
                  sql: "[::1]:6032"
                  user: boss
                  password: "0123"
                health:
                  enabled: true
                  interval: 250ms
                  timeout: 2s
                  fail_after: 1
                  recover_after: 5
                  max_replication_lag: 10s
                  user: monitor
                  password: ${MON}
                stats:
                  digests: false
                  max_digests: 10
                  metrics_digests: 0
                """);

        assertThat(config.admin()).isEqualTo(new AdminConfig(false, new HostPort("127.0.0.1", 0),
                new HostPort("::1", 6032), "boss", "0123"));
        assertThat(config.health()).isEqualTo(new HealthConfig(true, Duration.ofMillis(250), Duration.ofSeconds(2), 1, 5,
                Duration.ofSeconds(10), Optional.of("monitor"), Optional.of("m0n")));
        assertThat(config.health().limitsLag()).isTrue();
        assertThat(config.stats()).isEqualTo(new StatsConfig(false, 10, 0));
    }

    @Test
    void aFileWithoutTheSectionsGetsAdminAndHealthChecksButCodeDoesNot() {
        SluiceConfig fromFile = parse("");
        assertThat(fromFile.admin()).isEqualTo(AdminConfig.defaults());
        assertThat(fromFile.admin().enabled()).isTrue();
        assertThat(fromFile.admin().http()).isEqualTo(new HostPort("127.0.0.1", 4080));
        assertThat(fromFile.admin().sql()).isEqualTo(new HostPort("127.0.0.1", 4041));
        assertThat(fromFile.health().enabled()).isTrue();
        assertThat(fromFile.health().limitsLag()).isFalse();
        assertThat(SluiceConfig.defaults().admin().enabled()).isFalse();
        assertThat(SluiceConfig.defaults().health().enabled()).isFalse();
        assertThat(SluiceConfig.defaults().stats()).isEqualTo(StatsConfig.defaults());
    }

    @Test
    void badValuesNameTheKeyAndLine() {
        assertThat(problems("""
                admin:
                  http: localhost
                  user: ""
                  color: red
                health:
                  interval: 10ms
                  fail_after: 0
                  max_replication_lag: soon
                stats:
                  max_digests: -1
                  metrics_digests: 1001
                """)).containsExactly(
                "sluice.yaml:3:9: admin.http: \"localhost\" has no port (expected: host:port, e.g. 127.0.0.1:3306 or [::1]:3306)",
                "sluice.yaml:4:9: admin.user: empty name (expected: a non-empty name)",
                "sluice.yaml:5:3: admin: unknown key \"color\" (expected one of: enabled, http, sql, user, password, http_token)",
                "sluice.yaml:7:13: health.interval: \"10ms\" is out of range (expected: 100ms to 1h)",
                "sluice.yaml:8:15: health.fail_after: 0 is out of range (expected: an integer from 1 to 1000)",
                "sluice.yaml:9:24: health.max_replication_lag: \"soon\" is not a duration (expected: "
                        + Durations.EXPECTED + ")",
                "sluice.yaml:11:16: stats.max_digests: -1 is out of range (expected: an integer from 1 to 1000000)",
                "sluice.yaml:12:20: stats.metrics_digests: 1001 is out of range (expected: an integer from 0 to 1000)");
    }

    @Test
    void crossFieldChecksAreReportedAtTheSection() {
        assertThat(problems("health:\n  user: monitor\n")).containsExactly(
                "sluice.yaml:3:3: health: user is set without password (expected: both or neither)");
        assertThat(problems("admin:\n  http: 127.0.0.1:7000\n  sql: 127.0.0.1:7000\n")).containsExactly(
                "sluice.yaml:3:3: admin: http and sql: both 127.0.0.1:7000 (expected: two different ports)");
        assertThat(problems("admin:\n  http: 0.0.0.0:4080\n")).containsExactly(
                "sluice.yaml:3:3: admin: http: 0.0.0.0:4080 is reachable from other hosts, and /api/sessions shows"
                        + " users and addresses (expected: an http_token, or a loopback address)");
        assertThat(parse("admin:\n  http: 0.0.0.0:4080\n  http_token: ${MON}\n").admin().httpToken()).isEqualTo("m0n");
    }

    @Test
    void recordsRefuseWhatTheLoaderRefuses() {
        assertThatThrownBy(() -> new StatsConfig(true, 0)).hasMessageContaining("max_digests: 0 is out of range");
        assertThatThrownBy(() -> new StatsConfig(true, 10, -1)).hasMessageContaining("metrics_digests: -1 is out of range");
        assertThatThrownBy(() -> new HealthConfig(true, Duration.ofSeconds(1), Duration.ofSeconds(1), 3, 0, Duration.ZERO,
                Optional.empty(), Optional.empty())).hasMessageContaining("recover_after: 0");
        assertThat(AdminConfig.defaults().toString()).doesNotContain("password=admin").contains("(hidden)");
        assertThat(new HealthConfig(true, Duration.ofSeconds(1), Duration.ofSeconds(1), 3, 2, Duration.ZERO,
                Optional.of("m"), Optional.of("secret")).toString()).doesNotContain("secret");
    }
}
