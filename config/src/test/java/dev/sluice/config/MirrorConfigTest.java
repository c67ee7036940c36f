package dev.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The mirror section: every key read, each mistake named with its line. */
class MirrorConfigTest {

    private static final String BACKEND = "backends: [{address: \"127.0.0.1:3306\"}]\n";

    private static List<String> problems(String yaml) {
        ConfigException e = catchThrowableOfType(ConfigException.class,
                () -> ConfigLoader.parse(BACKEND + yaml, "sluice.yaml", Map.of()));
        assertThat(e).as("a ConfigException for:\n" + yaml).isNotNull();
        return e.problems().stream().map(ConfigProblem::toString).toList();
    }

    @Test
    void readsEveryKey() {
        SluiceConfig config = ConfigLoader.parse(BACKEND + """
                mirror:
                  address: shadow.example:3307
                  user: mirror
                  password: secret
                  statements: all
                  queue_size: 500
                  queue_bytes: 2M
                  connections: 4
                  timeout: 3s
                  sample: 0.25
                """, "sluice.yaml", Map.of());

        assertThat(config.mirror()).isEqualTo(new MirrorConfig(true, Optional.of(HostPort.parse("shadow.example:3307")),
                Optional.of("mirror"), Optional.of("secret"), MirrorConfig.Statements.ALL, 500, 2 << 20, 4,
                Duration.ofSeconds(3), 0.25));
    }

    @Test
    void anAddressTurnsItOnUnlessEnabledSaysOtherwise() {
        String users = "users: [{name: app, password: app}]\n";
        assertThat(ConfigLoader.parse(BACKEND + users + "mirror: {address: \"127.0.0.1:3310\"}\n", "s.yaml", Map.of())
                .mirror()).isEqualTo(MirrorConfig.to(HostPort.parse("127.0.0.1:3310")));
        assertThat(ConfigLoader.parse(BACKEND + "mirror: {address: \"127.0.0.1:3310\", enabled: false}\n", "s.yaml", Map.of())
                .mirror().enabled()).isFalse();
        assertThat(ConfigLoader.parse(BACKEND, "s.yaml", Map.of()).mirror()).isEqualTo(MirrorConfig.off());
    }

    @Test
    void mistakesNameKeyAndLine() {
        assertThat(problems("""
                mirror:
                  address: shadow
                  statements: writes
                  queue_size: 0
                  queue_bytes: 10
                  connections: 100
                  timeout: soon
                  colour: red
                  sample: 2
                """)).containsExactly(
                "sluice.yaml:3:12: mirror.address: \"shadow\" has no port (expected: host:port, e.g. 127.0.0.1:3306"
                        + " or [::1]:3306)",
                "sluice.yaml:4:15: mirror.statements: unknown value \"writes\" (expected one of: reads, all)",
                "sluice.yaml:5:15: mirror.queue_size: 0 is out of range (expected: an integer from 1 to 1048576)",
                "sluice.yaml:6:16: mirror.queue_bytes: \"10\" is out of range (expected: 1K to 1G bytes)",
                "sluice.yaml:7:16: mirror.connections: 100 is out of range (expected: an integer from 1 to 64)",
                "sluice.yaml:8:12: mirror.timeout: \"soon\" is not a duration (expected: " + Durations.EXPECTED + ")",
                "sluice.yaml:9:3: mirror: unknown key \"colour\" (expected one of: enabled, address, user, password,"
                        + " statements, queue_size, queue_bytes, connections, timeout, sample)",
                "sluice.yaml:10:11: mirror.sample: 2 is out of range (expected: a fraction from 1.0E-6 to 1)");
    }

    @Test
    void withoutUsersTheShadowNeedsAnAccount() {
        assertThat(problems("mirror:\n  address: \"127.0.0.1:3310\"\n")).singleElement().asString()
                .contains("mirror.user: missing");
        assertThat(problems("mirror:\n  address: \"127.0.0.1:3310\"\n  user: m\n")).singleElement().asString()
                .isEqualTo("sluice.yaml:3:3: mirror: user is set without password (expected: both or neither)");
    }
}
