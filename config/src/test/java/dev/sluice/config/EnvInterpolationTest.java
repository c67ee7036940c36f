package dev.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.Map;
import org.junit.jupiter.api.Test;

class EnvInterpolationTest {

    private static final EnvInterpolator ENV = new EnvInterpolator(Map.of(
            "APP_PASSWORD", "s3cret", "HOST", "db1", "PORT", "3306", "EMPTY", "", "W", "heavy"));

    @Test
    void replacesSetVariablesAnywhereInTheText() {
        assertThat(ENV.interpolate("${APP_PASSWORD}")).isEqualTo("s3cret");
        assertThat(ENV.interpolate("${HOST}:${PORT}")).isEqualTo("db1:3306");
        assertThat(ENV.interpolate("pre-${HOST}-post")).isEqualTo("pre-db1-post");
        assertThat(ENV.interpolate("${EMPTY}")).isEmpty();
        assertThat(ENV.interpolate("no references")).isEqualTo("no references");
    }

    @Test
    void usesTheDefaultWhenUnsetOrEmpty() {
        assertThat(ENV.interpolate("${MISSING:-fallback}")).isEqualTo("fallback");
        assertThat(ENV.interpolate("${EMPTY:-fallback}")).isEqualTo("fallback");
        assertThat(ENV.interpolate("${HOST:-fallback}")).isEqualTo("db1");
        assertThat(ENV.interpolate("${MISSING:-}")).isEmpty();
        assertThat(ENV.interpolate("${MISSING:-a:b-c}")).isEqualTo("a:b-c");
    }

    @Test
    void keepsLoneDollarsAndEscapesDoubleDollarBrace() {
        assertThat(ENV.interpolate("pa$$word$")).isEqualTo("pa$$word$");
        assertThat(ENV.interpolate("$${HOST}")).isEqualTo("${HOST}");
        // Read left to right: a lone '$', then the escape.
        assertThat(ENV.interpolate("$$${HOST}")).isEqualTo("$${HOST}");
        assertThat(ENV.interpolate("$HOST")).isEqualTo("$HOST");
    }

    @Test
    void rejectsMissingVariablesAndMalformedReferences() {
        assertThatThrownBy(() -> ENV.interpolate("${MISSING}")).hasMessage(
                "environment variable MISSING is not set (expected: set MISSING, or give a default: ${MISSING:-value})");
        assertThatThrownBy(() -> ENV.interpolate("x${HOST")).hasMessage(
                "\"${HOST\" has no closing '}' (expected: " + EnvInterpolator.EXPECTED + ")");
        assertThatThrownBy(() -> ENV.interpolate("${1X}")).hasMessageStartingWith("\"${1X}\" is not a variable reference");
        assertThatThrownBy(() -> ENV.interpolate("${}")).hasMessageStartingWith("\"${}\" is not a variable reference");
        assertThatThrownBy(() -> ENV.interpolate("${A-B}")).hasMessageStartingWith("\"${A-B}\" is not a variable reference");
    }

    @Test
    void interpolatesBeforeValuesAreTyped() {
        String yaml = """
                listen: ${LISTEN_HOST:-127.0.0.1}:${LISTEN_PORT:-4040}
                users:
                  - name: ${APP_USER:-app}
                    password: ${APP_PASSWORD}
                backends:
                  - address: ${HOST}:${PORT}
                    weight: ${WEIGHT:-5}
                timeouts:
                  connect: ${CONNECT:-2s}
                """;

        SluiceConfig config = ConfigLoader.parse(yaml, "env.yaml",
                Map.of("APP_PASSWORD", "s3cret", "HOST", "db1", "PORT", "3306", "LISTEN_PORT", "5050"));

        assertThat(config.listen()).isEqualTo(new HostPort("127.0.0.1", 5050));
        assertThat(config.user("app")).map(UserConfig::password).contains("s3cret");
        assertThat(config.backends().get(0).address()).isEqualTo(new HostPort("db1", 3306));
        assertThat(config.backends().get(0).weight()).isEqualTo(5);
        assertThat(config.timeouts().connect()).hasSeconds(2);
    }

    @Test
    void aMissingVariableNamesTheVariableKeyAndLine() {
        String yaml = """
                users:
                  - name: app
                    password: ${APP_PASSWORD}
                backends:
                  - address: db:3306
                    weight: ${W}
                """;

        ConfigException e = catchThrowableOfType(ConfigException.class,
                () -> ConfigLoader.parse(yaml, "sluice.yaml", Map.of("W", "heavy")));

        assertThat(e.problems()).extracting(ConfigProblem::toString).containsExactly(
                "sluice.yaml:3:15: users[0].password: environment variable APP_PASSWORD is not set"
                        + " (expected: set APP_PASSWORD, or give a default: ${APP_PASSWORD:-value})",
                "sluice.yaml:6:13: backends[0].weight: \"heavy\" is not a number (expected: an integer >= 0),"
                        + " from \"${W}\"");
    }

    @Test
    void theResolvedPasswordNeverAppearsInAnError() {
        String yaml = """
                users:
                  - name: app
                    password: ${APP_PASSWORD}
                  - name: app
                    password: ${APP_PASSWORD}
                backends: []
                """;

        ConfigException e = catchThrowableOfType(ConfigException.class,
                () -> ConfigLoader.parse(yaml, "sluice.yaml", Map.of("APP_PASSWORD", "hunter2")));

        assertThat(e.problems()).hasSize(2);
        assertThat(e.getMessage()).doesNotContain("hunter2");
        assertThat(ConfigLoader.parse(yaml.replace("[]", "[{address: \"db:1\"}]").replace("  - name: app\n    password: ${APP_PASSWORD}\n  - name", "  - name"),
                "ok.yaml", Map.of("APP_PASSWORD", "hunter2")).toString()).doesNotContain("hunter2");
    }
}
