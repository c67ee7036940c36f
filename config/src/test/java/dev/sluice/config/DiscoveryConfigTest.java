package dev.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Roles from @@read_only, the preferred primary, the primary wait and the read-your-writes scope. */
class DiscoveryConfigTest {

    private static SluiceConfig parse(String yaml) {
        return ConfigLoader.parse(yaml, "sluice.yaml", Map.of());
    }

    private static List<String> problems(String yaml) {
        ConfigException e = catchThrowableOfType(ConfigException.class, () -> parse(yaml));
        assertThat(e).as("a ConfigException for:\n" + yaml).isNotNull();
        return e.problems().stream().map(ConfigProblem::toString).toList();
    }

    @Test
    void discoverReadOnlyMakesEveryBackendWithoutARoleAuto() {
        SluiceConfig config = parse("""
                users: [{name: app, password: pw}]
                backends:
                  - {name: a, address: "db1:3306"}
                  - {name: b, address: "db2:3306"}
                  - {name: delayed, address: "db3:3306", role: replica}
                routing:
                  mode: split
                  discover: read_only
                  preferred_primary: b
                """);

        assertThat(config.backends()).extracting(BackendConfig::role).containsExactly(BackendConfig.Role.AUTO,
                BackendConfig.Role.AUTO, BackendConfig.Role.REPLICA);
        assertThat(config.routing().discover()).isEqualTo(RoutingConfig.Discover.READ_ONLY);
        assertThat(config.routing().preferredPrimary()).contains("b");
    }

    @Test
    void roleAutoCanBeSetPerBackend() {
        SluiceConfig config = parse("users: [{name: app, password: pw}]\nbackends:\n  - {address: \"db1:3306\", role: auto}\n"
                + "  - {address: \"db2:3306\", role: replica}\nrouting: {mode: split}\n");

        assertThat(config.backends().get(0).isAuto()).isTrue();
        assertThat(config.backends().get(0).isPrimary()).as("not a fixed primary").isFalse();
        assertThat(config.routing().discover()).isEqualTo(RoutingConfig.Discover.OFF);
    }

    @Test
    void primaryWaitAndScopeAreRead() {
        SluiceConfig config = parse("backends: [{address: \"db:3306\"}]\ntimeouts: {primary_wait: 12s}\n"
                + "routing: {read_your_writes: gtid, read_your_writes_scope: user}\n");

        assertThat(config.timeouts().primaryWait()).isEqualTo(Duration.ofSeconds(12));
        assertThat(config.routing().readYourWritesScope()).isEqualTo(RoutingConfig.ReadYourWritesScope.USER);
        SluiceConfig defaults = parse("backends: [{address: \"db:3306\"}]\n");
        assertThat(defaults.timeouts().primaryWait()).isEqualTo(TimeoutsConfig.DEFAULT_PRIMARY_WAIT);
        assertThat(defaults.routing().readYourWritesScope()).isEqualTo(RoutingConfig.ReadYourWritesScope.SESSION);
        assertThat(defaults.routing().preferredPrimary()).isEmpty();
    }

    @Test
    void autoNeedsHealthChecks() {
        assertThat(problems("""
                users: [{name: app, password: pw}]
                backends: [{address: "db1:3306"}]
                routing:
                  discover: read_only
                health:
                  enabled: false
                """)).containsExactly("sluice.yaml:4:13: routing.discover: role auto needs the health checks, which"
                + " read each backend's @@read_only (found: health.enabled: false)");
        assertThat(problems("backends: [{address: \"db1:3306\", role: auto}]\n")).containsExactly(
                "sluice.yaml:1:1: backends: role auto needs the health checks, which need an account (found: no"
                        + " health.user and no users)");
    }

    @Test
    void aFixedPrimaryCannotSitBesideAutoOnes() {
        assertThat(problems("""
                users: [{name: app, password: pw}]
                backends:
                  - {name: main, address: "db1:3306", role: primary}
                  - {name: other, address: "db2:3306", role: auto}
                """)).containsExactly("sluice.yaml:2:1: backends: role primary (main) and role auto cannot be mixed:"
                + " with auto, the primary is whichever backend has read_only off (expected: auto for every backend that"
                + " may take writes, replica for the others)");
    }

    @Test
    void thePreferredPrimaryMustBeAnAutoBackend() {
        assertThat(problems("""
                users: [{name: app, password: pw}]
                backends:
                  - {name: a, address: "db1:3306"}
                  - {name: r, address: "db2:3306", role: replica}
                routing:
                  discover: read_only
                  preferred_primary: r
                """)).containsExactly("sluice.yaml:7:22: routing.preferred_primary: \"r\" is not a backend with role"
                + " auto (expected one of: a)");
        assertThat(problems("backends: [{name: a, address: \"db1:3306\"}]\nrouting: {preferred_primary: a}\n"))
                .containsExactly("sluice.yaml:2:30: routing.preferred_primary: \"a\" is not a backend with role auto"
                        + " (expected: role auto on the backends it chooses among, or routing.discover: read_only)");
    }

    @Test
    void badValuesNameKeyAndLine() {
        assertThat(problems("""
                backends: [{address: "db1:3306", role: leader}]
                routing: {discover: yes, read_your_writes_scope: everyone}
                timeouts: {primary_wait: 2h}
                """)).containsExactly(
                "sluice.yaml:1:40: backends[0].role: unknown value \"leader\" (expected one of: primary, replica, auto)",
                "sluice.yaml:2:21: routing.discover: unknown value \"yes\" (expected one of: off, read_only, replica_hosts)",
                "sluice.yaml:2:50: routing.read_your_writes_scope: unknown value \"everyone\" (expected one of: session,"
                        + " user, global)",
                "sluice.yaml:3:26: timeouts.primary_wait: \"2h\" is out of range (expected: 0s to 1h)");
    }

    @Test
    void recordsBuiltInCodeKeepTheSameRules() {
        BackendConfig auto = new BackendConfig("a", new HostPort("db", 3306), BackendConfig.Role.AUTO, 1, 10);
        SluiceConfig noHealth = SluiceConfig.defaults().withUsers(List.of(new UserConfig("app", "pw")));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> noHealth.withBackends(List.of(auto)))
                .hasMessageContaining("role auto needs the health checks");
        SluiceConfig ok = noHealth.withHealth(HealthConfig.defaults()).withBackends(List.of(auto))
                .withRouting(RoutingConfig.defaults().withDiscover(RoutingConfig.Discover.OFF, Optional.of("a")));
        assertThat(ok.routing().preferredPrimary()).contains("a");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> ok.withRouting(RoutingConfig.defaults()
                        .withDiscover(RoutingConfig.Discover.OFF, Optional.of("b"))))
                .hasMessage("routing.preferred_primary: \"b\" is not a backend with role auto");
    }
}
