package dev.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigLoaderTest {

    private static final Map<String, String> NO_ENV = Map.of();

    /** Every key set to something other than its default, so a key that is not read shows up. */
    private static final String FULL = """
            listen: 127.0.0.1:5050
            users:
              - name: app
                password: s3cret
              - name: report
                password: "0123"
            backends:
              - name: main
                address: 10.0.0.1:3306
                role: primary
                weight: 3
                max_connections: 50
              - address: "[::1]:3307"
                role: replica
                weight: 0
                max_connections: 7
            routing:
              mode: split
              balancer: least_latency
            limits:
              max_client_connections: 500
              backend_queue_size: 0
              allow_local_infile: true
              max_packet_size: 16M
            timeouts:
              connect: 1500ms
              handshake: 3s
              client_idle: 1h30m
              backend_queue: 0
              pool_idle: 2m
              shutdown: 0s
              backend_retry: 250ms
            tls:
              client:
                enabled: false
                cert: certs/cert.pem
                key: certs/key.pem
                required: false
              backend:
                enabled: true
                verify: false
                ca: /etc/ca.pem
            event_loops: 3
            """;

    @Test
    void readsEveryKeyOfAFullFile() {
        SluiceConfig config = ConfigLoader.parse(FULL, "full.yaml", NO_ENV);

        SluiceConfig expected = new SluiceConfig(
                new HostPort("127.0.0.1", 5050),
                List.of(new UserConfig("app", "s3cret"), new UserConfig("report", "0123")),
                List.of(new BackendConfig("main", new HostPort("10.0.0.1", 3306), BackendConfig.Role.PRIMARY, 3, 50),
                        new BackendConfig("[::1]:3307", new HostPort("::1", 3307), BackendConfig.Role.REPLICA, 0, 7)),
                new RoutingConfig(RoutingConfig.Mode.SPLIT, RoutingConfig.Balancer.LEAST_LATENCY),
                new LimitsConfig(500, 0, true, 16 << 20),
                new TimeoutsConfig(Duration.ofMillis(1500), Duration.ofSeconds(3), Duration.ofMinutes(90), Duration.ZERO,
                        Duration.ofMinutes(2), Duration.ZERO, Duration.ofMillis(250)),
                new TlsConfig(
                        new ClientTlsConfig(false, Optional.of(Path.of("certs/cert.pem")),
                                Optional.of(Path.of("certs/key.pem")), false),
                        new BackendTlsConfig(true, false, Optional.of(Path.of("/etc/ca.pem")))),
                3, AdminConfig.defaults(), HealthConfig.defaults(), StatsConfig.defaults());
        assertThat(config).isEqualTo(expected);
        assertThat(config.passThroughAuth()).isFalse();
        assertThat(config.user("report")).map(UserConfig::password).contains("0123");
        assertThat(config.user("nobody")).isEmpty();
        assertThat(config.backend("[::1]:3307")).map(BackendConfig::isReplica).contains(true);
    }

    @Test
    void aBackendKeyFileIsCheckedAndRetrievalIsOptIn(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        Path key = java.nio.file.Files.writeString(dir.resolve("mysql8.pem"), "-----BEGIN PUBLIC KEY-----\n");
        SluiceConfig config = ConfigLoader.parse("backends:\n  - address: 127.0.0.1:3306\ntls:\n  backend:\n"
                + "    server_public_key: " + key + "\n    allow_public_key_retrieval: true\n", "key.yaml", NO_ENV);
        assertThat(config.tls().backend().serverPublicKey()).contains(key);
        assertThat(config.tls().backend().allowPublicKeyRetrieval()).isTrue();
        assertThat(SluiceConfig.defaults().tls().backend().allowPublicKeyRetrieval()).as("off by default").isFalse();
        ConfigException missing = org.assertj.core.api.Assertions.catchThrowableOfType(ConfigException.class,
                () -> ConfigLoader.parse("backends:\n  - address: 127.0.0.1:3306\ntls:\n  backend:\n"
                        + "    server_public_key: " + dir.resolve("none.pem") + "\n", "key.yaml", NO_ENV));
        assertThat(missing.getMessage()).contains("key.yaml:5:24: tls.backend.server_public_key:", "no such file");
    }

    /** TLS towards backends checks their certificates unless the config says not to. */
    @Test
    void backendTlsIsVerifiedUnlessToldOtherwise() {
        SluiceConfig on = ConfigLoader.parse("backends:\n  - address: 127.0.0.1:3306\ntls:\n  backend:\n"
                + "    enabled: true\n", "tls.yaml", NO_ENV);
        assertThat(on.tls().backend().verify()).isTrue();
        assertThat(on.tls().backend().verified()).isTrue();
        SluiceConfig off = ConfigLoader.parse("backends:\n  - address: 127.0.0.1:3306\ntls:\n  backend:\n"
                + "    enabled: true\n    verify: false\n", "tls.yaml", NO_ENV);
        assertThat(off.tls().backend().verified()).isFalse();
        assertThat(SluiceConfig.defaults().tls().backend().verify()).as("no TLS, nothing to verify").isFalse();
    }

    /** Every client the proxy accepts may wait its turn for a backend unless told otherwise. */
    @Test
    void theBackendQueueHoldsAsManyAsMayConnect() {
        SluiceConfig config = ConfigLoader.parse("backends:\n  - address: 127.0.0.1:3306\nlimits:\n"
                + "  max_client_connections: 3500\n", "queue.yaml", NO_ENV);
        assertThat(config.limits().backendQueueSize()).isEqualTo(3500);
    }

    @Test
    void aFileWithOnlyABackendTakesEveryDefault() {
        SluiceConfig config = ConfigLoader.parse("backends:\n  - address: 127.0.0.1:3306\n", "min.yaml", NO_ENV);

        assertThat(config).isEqualTo(SluiceConfig.defaults()
                .withBackends(List.of(BackendConfig.of(new HostPort("127.0.0.1", 3306))))
                .withAdmin(AdminConfig.defaults()).withHealth(HealthConfig.defaults()));
        assertThat(config.passThroughAuth()).isTrue();
        assertThat(config.listen()).isEqualTo(new HostPort("0.0.0.0", 4040));
        assertThat(config.backends().get(0).name()).isEqualTo("127.0.0.1:3306");
        assertThat(config.backends().get(0).role()).isEqualTo(BackendConfig.Role.PRIMARY);
        assertThat(config.timeouts().clientIdle()).isEqualTo(Duration.ofHours(8));
        assertThat(config.limits().maxPacketSize()).isEqualTo(1 << 30);
        assertThat(config.tls().client().enabled()).isFalse();
        assertThat(config.eventLoops()).isZero();
    }

    @Test
    void nullAndEmptySectionsMeanDefaults() {
        String yaml = """
                listen: ~
                users:
                backends: [{address: "db:3306"}]
                routing:
                limits: {}
                timeouts: null
                tls:
                  client:
                  backend: {}
                event_loops:
                admin:
                health: {}
                stats: ~
                """;

        SluiceConfig config = ConfigLoader.parse(yaml, "nulls.yaml", NO_ENV);

        assertThat(config).isEqualTo(SluiceConfig.defaults().withBackends(List.of(BackendConfig.of(HostPort.parse("db:3306"))))
                .withAdmin(AdminConfig.defaults()).withHealth(HealthConfig.defaults()));
    }

    @Test
    void valuesAreTypedByTheSchemaNotByYamlGuesses() {
        String yaml = """
                users:
                  - name: 123
                    password: 0x1F
                  - name: "true"
                    password: ""
                  - name: off
                    password: 1e3
                backends:
                  - address: db:3306
                    name: 3306
                    weight: +2
                """;

        SluiceConfig config = ConfigLoader.parse(yaml, "t.yaml", NO_ENV);

        assertThat(config.users()).containsExactly(new UserConfig("123", "0x1F"), new UserConfig("true", ""),
                new UserConfig("off", "1e3"));
        assertThat(config.backends().get(0).name()).isEqualTo("3306");
        assertThat(config.backends().get(0).weight()).isEqualTo(2);
    }

    @Test
    void mergeKeysAndXKeysShareSettingsBetweenBackends() {
        String yaml = """
                x-replica: &replica
                  role: replica
                  max_connections: 20
                backends:
                  - address: db1:3306
                  - <<: *replica
                    address: db2:3306
                  - <<: *replica
                    address: db3:3306
                    max_connections: 30
                """;

        SluiceConfig config = ConfigLoader.parse(yaml, "merge.yaml", NO_ENV);

        assertThat(config.backends()).extracting(BackendConfig::role, BackendConfig::maxConnections)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(BackendConfig.Role.PRIMARY, 200),
                        org.assertj.core.groups.Tuple.tuple(BackendConfig.Role.REPLICA, 20),
                        org.assertj.core.groups.Tuple.tuple(BackendConfig.Role.REPLICA, 30));
    }

    @Test
    void loadsAFileResolvingRelativeCertificatePathsFromItsFolder(@TempDir Path dir) throws IOException {
        Files.createDirectories(dir.resolve("certs"));
        Files.writeString(dir.resolve("certs/cert.pem"), "-----BEGIN CERTIFICATE-----\n");
        Files.writeString(dir.resolve("certs/key.pem"), "-----BEGIN PRIVATE KEY-----\n");
        Path file = dir.resolve("sluice.yaml");
        Files.writeString(file, """
                backends:
                  - address: 127.0.0.1:3306
                tls:
                  client:
                    enabled: true
                    cert: certs/cert.pem
                    key: certs/key.pem
                    required: true
                """);

        SluiceConfig config = ConfigLoader.load(file, NO_ENV);

        assertThat(config.tls().client().cert()).contains(dir.resolve("certs/cert.pem"));
        assertThat(config.tls().client().key()).contains(dir.resolve("certs/key.pem"));
        assertThat(config.tls().client().required()).isTrue();
        assertThat(config.tls().client().selfSigned()).isFalse();
    }

    @Test
    void loadingAgainSeesTheChangedFile(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("sluice.yaml");
        Files.writeString(file, "backends:\n  - address: db1:3306\n");
        SluiceConfig first = ConfigLoader.load(file, NO_ENV);
        Files.writeString(file, "backends:\n  - address: db1:3306\n  - address: db2:3306\n    role: replica\n");

        SluiceConfig second = ConfigLoader.load(file, NO_ENV);

        assertThat(first.backends()).hasSize(1);
        assertThat(second.backends()).extracting(BackendConfig::name).containsExactly("db1:3306", "db2:3306");
        assertThat(ConfigLoader.load(file, NO_ENV)).isEqualTo(second);
    }

    @Test
    void acceptsAUtf8ByteOrderMarkAndRejectsOtherEncodings(@TempDir Path dir) throws IOException {
        Path bom = dir.resolve("bom.yaml");
        Files.write(bom, ("\uFEFFbackends:\n  - address: db:3306\n").getBytes(StandardCharsets.UTF_8));
        assertThat(ConfigLoader.load(bom, NO_ENV).backends()).hasSize(1);

        Path latin1 = dir.resolve("latin1.yaml");
        Files.write(latin1, "users:\n  - name: j\u00f6rg\n".getBytes(StandardCharsets.ISO_8859_1));
        assertThatThrownBy(() -> ConfigLoader.load(latin1, NO_ENV))
                .isInstanceOf(ConfigException.class)
                .hasMessage(latin1 + ": cannot read the config file: not UTF-8 text");
    }

    @Test
    void aMissingFileOrAFolderIsAClearError(@TempDir Path dir) {
        Path missing = dir.resolve("nope.yaml");
        assertThatThrownBy(() -> ConfigLoader.load(missing, NO_ENV))
                .isInstanceOf(ConfigException.class)
                .hasMessage(missing + ": cannot read the config file: no such file");
        assertThatThrownBy(() -> ConfigLoader.load(dir, NO_ENV))
                .isInstanceOf(ConfigException.class)
                .hasMessage(dir + ": cannot read the config file: is a directory");
    }

    @Test
    void theProcessEnvironmentIsTheDefaultLookup() {
        String path = System.getenv("PATH");
        SluiceConfig config = ConfigLoader.parse("""
                users: [{name: u, password: "${PATH}"}]
                backends: [{address: "db:1"}]
                """, "env.yaml");

        assertThat(config.user("u")).map(UserConfig::password).contains(path);
    }
}
