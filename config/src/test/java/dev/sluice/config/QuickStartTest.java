package dev.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.List;
import org.junit.jupiter.api.Test;

class QuickStartTest {

    @Test
    void aBackendWithDefaults() {
        assertThat(QuickStart.backend("127.0.0.1:3306")).isEqualTo(new BackendConfig("127.0.0.1:3306",
                new HostPort("127.0.0.1", 3306), BackendConfig.Role.PRIMARY, 1, 200));
    }

    @Test
    void aBackendWithEveryOption() {
        assertThat(QuickStart.backend("[::1]:3307,role=replica,weight=3,name=r,max_connections=10")).isEqualTo(
                new BackendConfig("r", new HostPort("::1", 3307), BackendConfig.Role.REPLICA, 3, 10));
    }

    @Test
    void backendErrorsNameTheFlagAndOption() {
        assertThat(messageOf(() -> QuickStart.backend("db:3306,weight=x"))).isEqualTo(
                "--backend \"db:3306,weight=x\": weight: \"x\" is not a number (expected: an integer >= 0)");
        assertThat(messageOf(() -> QuickStart.backend("db:3306,role=master"))).isEqualTo(
                "--backend \"db:3306,role=master\": role: unknown value \"master\" (expected one of: primary, replica, auto)");
        assertThat(messageOf(() -> QuickStart.backend("db:3306,wieght=2"))).isEqualTo(
                "--backend \"db:3306,wieght=2\": unknown option \"wieght\" (expected one of: role, weight, name,"
                        + " max_connections)");
        assertThat(messageOf(() -> QuickStart.backend("db:3306,replica"))).isEqualTo(
                "--backend \"db:3306,replica\": \"replica\" is not an option (expected: KEY=VALUE, KEY expected one"
                        + " of: role, weight, name, max_connections)");
        assertThat(messageOf(() -> QuickStart.backend("db:3306,weight=1,weight=2"))).isEqualTo(
                "--backend \"db:3306,weight=1,weight=2\": weight: given twice (expected: each option once)");
        assertThat(messageOf(() -> QuickStart.backend("db"))).isEqualTo(
                "--backend \"db\": \"db\" has no port (expected: host:port, e.g. 127.0.0.1:3306 or [::1]:3306)");
        assertThat(messageOf(() -> QuickStart.backend(""))).isEqualTo(
                "--backend \"\": \"\" has no port (expected: host:port, e.g. 127.0.0.1:3306 or [::1]:3306)");
        assertThat(messageOf(() -> QuickStart.backend("db:0,max_connections=0,name="))).isEqualTo("""
                3 configuration problems:
                  --backend "db:0,max_connections=0,name=": "db:0": port 0 is not a backend port (expected: 1 to 65535)
                  --backend "db:0,max_connections=0,name=": max_connections: 0 is out of range (expected: an integer > 0)
                  --backend "db:0,max_connections=0,name=": name: empty name (expected: a non-empty name)""");
    }

    @Test
    void usersSplitAtTheFirstColon() {
        assertThat(QuickStart.user("app:s3cret")).isEqualTo(new UserConfig("app", "s3cret"));
        assertThat(QuickStart.user("app:s3:cr:et")).isEqualTo(new UserConfig("app", "s3:cr:et"));
        assertThat(QuickStart.user("app:")).isEqualTo(new UserConfig("app", ""));
        assertThat(messageOf(() -> QuickStart.user("app"))).isEqualTo(
                "--user \"app\": no ':' between name and password (expected: NAME:PASSWORD)");
        assertThat(messageOf(() -> QuickStart.user(":secret"))).isEqualTo(
                "--user: empty user name (expected: NAME:PASSWORD)").doesNotContain("secret\"");
    }

    @Test
    void configNamesBackendsByRole() {
        SluiceConfig config = QuickStart.config(
                List.of("127.0.0.1:3306", "127.0.0.1:3307,role=replica", "127.0.0.1:3308,role=replica,weight=2"),
                List.of("app:pw"));

        assertThat(config.backends()).extracting(BackendConfig::name).containsExactly("primary", "replica1", "replica2");
        assertThat(config.backends().get(2).weight()).isEqualTo(2);
        assertThat(config.users()).containsExactly(new UserConfig("app", "pw"));
        assertThat(config.withBackends(List.of()).withUsers(List.of())).isEqualTo(SluiceConfig.defaults()
                .withAdmin(AdminConfig.defaults()).withHealth(HealthConfig.defaults()));
    }

    @Test
    void generatedNamesNumberSeveralPrimariesAndSkipExplicitNames() {
        SluiceConfig config = QuickStart.config(
                List.of("a:1", "b:2,name=replica1", "c:3,role=replica", "d:4", "e:5,role=replica,name=primary2"),
                List.of());

        assertThat(config.backends()).extracting(BackendConfig::name)
                .containsExactly("primary1", "replica1", "replica2", "primary3", "primary2");
        assertThat(config.passThroughAuth()).isTrue();
    }

    @Test
    void configReportsEveryProblemAtOnce() {
        ConfigException e = catchThrowableOfType(ConfigException.class, () -> QuickStart.config(
                List.of("a:1,name=x", "b:2,name=x", "c"), List.of("app:one", "app:two", "bob")));

        assertThat(e.problems()).extracting(ConfigProblem::toString).containsExactly(
                "--backend \"b:2,name=x\": name: duplicate backend name \"x\" (expected: unique names)",
                "--backend \"c\": \"c\" has no port (expected: host:port, e.g. 127.0.0.1:3306 or [::1]:3306)",
                "--user \"app:...\": duplicate user name \"app\" (expected: unique names)",
                "--user \"bob\": no ':' between name and password (expected: NAME:PASSWORD)");
        assertThat(e.getMessage()).doesNotContain("one").doesNotContain("two");
    }

    @Test
    void configChecksTheBackendsTogether() {
        assertThatThrownBy(() -> QuickStart.config(List.of("a:1,weight=0", "b:2,weight=0,role=replica"), List.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessage("--backend: backends: every weight is 0 (expected: at least one backend with weight > 0)");
    }

    @Test
    void configNeedsABackend() {
        assertThatThrownBy(() -> QuickStart.config(List.of(), List.of("app:pw")))
                .isInstanceOf(ConfigException.class)
                .hasMessage("--backend: no backends (expected: at least one --backend " + QuickStart.BACKEND_FORM + ")");
    }

    private static String messageOf(Runnable action) {
        ConfigException e = catchThrowableOfType(ConfigException.class, action::run);
        assertThat(e).as("a ConfigException").isNotNull();
        return e.getMessage();
    }
}
