package dev.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The records guard themselves, so a config built in code is as valid as one loaded from a file. */
class RecordsTest {

    private static final HostPort DB = new HostPort("db", 3306);

    @Test
    void defaultsAreTheDocumentedOnes() {
        assertThat(RoutingConfig.defaults()).isEqualTo(new RoutingConfig(RoutingConfig.Mode.SESSION,
                RoutingConfig.Balancer.ROUND_ROBIN));
        assertThat(LimitsConfig.defaults()).isEqualTo(new LimitsConfig(10_000, 10_000, false, 1_073_741_824));
        assertThat(TimeoutsConfig.defaults()).isEqualTo(new TimeoutsConfig(Duration.ofSeconds(5), Duration.ofSeconds(10),
                Duration.ofHours(8), Duration.ofSeconds(5), Duration.ofSeconds(60), Duration.ofSeconds(30),
                Duration.ofSeconds(1)));
        assertThat(TlsConfig.defaults().client().enabled()).isFalse();
        assertThat(TlsConfig.defaults().backend().verify()).isFalse();
        SluiceConfig defaults = SluiceConfig.defaults();
        assertThat(defaults.listen()).hasToString("0.0.0.0:4040");
        assertThat(defaults.backends()).isEmpty();
        assertThat(defaults.passThroughAuth()).isTrue();
        assertThat(defaults.eventLoops()).isZero();
    }

    @Test
    void backendRejectsBadValues() {
        assertThatThrownBy(() -> new BackendConfig("", DB, BackendConfig.Role.PRIMARY, 1, 1))
                .hasMessage("name: empty (expected: a backend name)");
        assertThatThrownBy(() -> new BackendConfig("b", new HostPort("db", 0), BackendConfig.Role.PRIMARY, 1, 1))
                .hasMessage("address: db:0: port 0 is not a backend port (expected: 1 to 65535)");
        assertThatThrownBy(() -> new BackendConfig("b", DB, BackendConfig.Role.PRIMARY, -1, 1))
                .hasMessage("weight: -1 is out of range (expected: an integer >= 0)");
        assertThatThrownBy(() -> new BackendConfig("b", DB, BackendConfig.Role.PRIMARY, 1, 0))
                .hasMessage("max_connections: 0 is out of range (expected: an integer > 0)");
        assertThatThrownBy(() -> new BackendConfig("b", DB, null, 1, 1)).isInstanceOf(NullPointerException.class);
        assertThat(BackendConfig.of(DB)).isEqualTo(new BackendConfig("db:3306", DB, BackendConfig.Role.PRIMARY, 1, 200));
        assertThat(BackendConfig.Role.REPLICA.configName()).isEqualTo("replica");
        assertThat(RoutingConfig.Balancer.LEAST_CONNECTIONS.configName()).isEqualTo("least_connections");
    }

    @Test
    void limitsAndTimeoutsRejectOutOfRangeValues() {
        assertThatThrownBy(() -> new LimitsConfig(0, 1, false, 1 << 20))
                .hasMessage("max_client_connections: 0 is out of range (expected: an integer > 0)");
        assertThatThrownBy(() -> new LimitsConfig(1, -1, false, 1 << 20))
                .hasMessage("backend_queue_size: -1 is out of range (expected: an integer >= 0)");
        assertThatThrownBy(() -> new LimitsConfig(1, 1, false, 1023))
                .hasMessage("max_packet_size: 1023 is out of range (expected: 1024 to 1073741824 bytes)");
        TimeoutsConfig d = TimeoutsConfig.defaults();
        assertThatThrownBy(() -> new TimeoutsConfig(Duration.ZERO, d.handshake(), d.clientIdle(), d.backendQueue(),
                d.poolIdle(), d.shutdown(), d.backendRetry()))
                .hasMessage("connect: 0s is out of range (expected: more than 0s, at most 365d)");
        assertThatThrownBy(() -> new TimeoutsConfig(d.connect(), d.handshake(), d.clientIdle(), Duration.ofSeconds(-1),
                d.poolIdle(), d.shutdown(), d.backendRetry()))
                .hasMessage("backend_queue: -1s is out of range (expected: 0s to 365d)");
        assertThatThrownBy(() -> new TimeoutsConfig(d.connect(), d.handshake(), Duration.ofDays(366), d.backendQueue(),
                d.poolIdle(), d.shutdown(), d.backendRetry()))
                .hasMessage("client_idle: 366d is out of range (expected: more than 0s, at most 365d)");
        assertThatThrownBy(() -> new TimeoutsConfig(d.connect(), d.handshake(), d.clientIdle(), d.backendQueue(),
                d.poolIdle(), d.shutdown(), Duration.ofSeconds(31)))
                .hasMessage("backend_retry: 31s is out of range (expected: more than 0s, at most 30s)");
        assertThat(new TimeoutsConfig(d.connect(), d.handshake(), d.clientIdle(), Duration.ZERO, d.poolIdle(),
                Duration.ZERO, TimeoutsConfig.BACKEND_RETRY_CAP).shutdown()).isZero();
    }

    @Test
    void tlsChecksItsPairs() {
        Optional<Path> pem = Optional.of(Path.of("x.pem"));
        assertThatThrownBy(() -> new ClientTlsConfig(true, Optional.empty(), pem, false))
                .hasMessage("key is set without cert (expected: both cert and key, or neither for a self-signed certificate)");
        assertThatThrownBy(() -> new ClientTlsConfig(false, Optional.empty(), Optional.empty(), true))
                .hasMessage("required: true needs enabled: true");
        assertThatThrownBy(() -> new BackendTlsConfig(false, true, Optional.empty()))
                .hasMessage("verify: true needs enabled: true");
        assertThat(new ClientTlsConfig(true, Optional.empty(), Optional.empty(), true).selfSigned()).isTrue();
        assertThat(new ClientTlsConfig(true, pem, pem, false).selfSigned()).isFalse();
        assertThat(ClientTlsConfig.defaults().selfSigned()).isFalse();
    }

    @Test
    void sluiceConfigChecksNamesAndRouting() {
        BackendConfig replica = new BackendConfig("r", DB, BackendConfig.Role.REPLICA, 1, 1);
        SluiceConfig base = SluiceConfig.defaults();

        assertThatThrownBy(() -> base.withBackends(List.of(replica, replica)))
                .hasMessage("backends: duplicate name \"r\" (expected: unique names)");
        assertThatThrownBy(() -> base.withUsers(List.of(new UserConfig("u", "a"), new UserConfig("u", "b"))))
                .hasMessage("users: duplicate name \"u\" (expected: unique names)");
        RoutingConfig splitRouting = new RoutingConfig(RoutingConfig.Mode.SPLIT, RoutingConfig.Balancer.WEIGHTED);
        assertThatThrownBy(() -> new SluiceConfig(base.listen(), List.of(), List.of(), splitRouting, base.limits(),
                base.timeouts(), base.tls(), 0)).hasMessage("routing.mode: split needs users: the proxy logs into the"
                + " backends itself to move statements between connections");
        SluiceConfig split = new SluiceConfig(base.listen(), List.of(new UserConfig("app", "secret")), List.of(),
                splitRouting, base.limits(), base.timeouts(), base.tls(), 0);
        assertThatThrownBy(() -> split.withBackends(List.of(replica)))
                .hasMessage("routing.mode: split needs a backend with role primary (or auto) and weight > 0 to take writes");
        BackendConfig drained = new BackendConfig("p", DB, BackendConfig.Role.PRIMARY, 0, 1);
        assertThatThrownBy(() -> split.withBackends(List.of(drained, new BackendConfig("r", DB, BackendConfig.Role.REPLICA, 1, 1))))
                .hasMessage("routing.mode: split needs a backend with role primary (or auto) and weight > 0 to take writes");
        assertThatThrownBy(() -> base.withBackends(List.of(drained)))
                .hasMessage("backends: every weight is 0 (expected: at least one backend with weight > 0)");
        assertThatThrownBy(() -> new SluiceConfig(base.listen(), List.of(), List.of(), base.routing(), base.limits(),
                base.timeouts(), base.tls(), -1)).hasMessage("event_loops: -1 is out of range (expected: an integer >= 0)");
    }

    @Test
    void listsAreCopiedSoTheConfigStaysImmutable() {
        List<BackendConfig> backends = new ArrayList<>(List.of(BackendConfig.of(DB)));
        SluiceConfig config = SluiceConfig.defaults().withBackends(backends);
        backends.clear();

        assertThat(config.backends()).hasSize(1);
        assertThatThrownBy(() -> config.backends().clear()).isInstanceOf(UnsupportedOperationException.class);
        assertThat(config.backend("db:3306")).isPresent();
        assertThat(config.withListen(new HostPort("::1", 0)).listen()).hasToString("[::1]:0");
    }

    @Test
    void passwordsStayOutOfToString() {
        UserConfig user = new UserConfig("app", "hunter2");
        SluiceConfig config = SluiceConfig.defaults().withUsers(List.of(user));

        assertThat(user.toString()).isEqualTo("UserConfig[name=app, password=(hidden)]");
        assertThat(new UserConfig("app", "").toString()).isEqualTo("UserConfig[name=app, password=(empty)]");
        assertThat(config.toString()).contains("name=app").doesNotContain("hunter2");
        assertThat(user).isEqualTo(new UserConfig("app", "hunter2")).isNotEqualTo(new UserConfig("app", "other"));
    }

    @Test
    void problemsFormatWithAndWithoutAPlace() {
        assertThat(new ConfigProblem("s.yaml", 3, 1, "", "unknown key \"x\"")).hasToString("s.yaml:3:1: unknown key \"x\"");
        assertThat(ConfigProblem.unplaced("--user", "", "empty")).hasToString("--user: empty");
        assertThat(ConfigProblem.unplaced("--backend \"x\"", "weight", "bad")).hasToString("--backend \"x\": weight: bad");
        assertThatThrownBy(() -> new ConfigException(List.of())).isInstanceOf(IllegalArgumentException.class);
    }
}
