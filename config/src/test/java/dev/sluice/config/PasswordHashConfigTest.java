package dev.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** users[].password_hash: the mysql_native_password hash in place of the password. */
class PasswordHashConfigTest {

    private static final String HASH = "*2470C0C06DEE42FD1618BB99005ADCA2EC9D1E19";
    private static final String BACKEND = "backends: [{address: \"db:3306\"}]\n";

    @Test
    void aHashStandsInForThePassword() {
        SluiceConfig config = ConfigLoader.parse("""
                users:
                  - name: app
                    password_hash: "*2470c0c06dee42fd1618bb99005adca2ec9d1e19"
                  - name: report
                    password_hash: ${REPORT_HASH}
                  - name: admin
                    password: ""
                """ + BACKEND, "sluice.yaml", Map.of("REPORT_HASH", HASH));

        assertThat(config.users()).containsExactly(UserConfig.withPasswordHash("app", HASH),
                UserConfig.withPasswordHash("report", HASH), new UserConfig("admin", ""));
        assertThat(config.users().get(0).passwordHash()).as("upper case").isEqualTo(HASH);
        assertThat(config.users().get(0).hasPassword()).isFalse();
        assertThat(config.users().get(2).hasPassword()).isTrue();
        assertThat(config.users().get(0).toString()).isEqualTo("UserConfig[name=app, password_hash=(hidden)]");
    }

    @Test
    void bothAtOnceIsAnErrorAtTheHashsLine() {
        assertThat(problems("""
                users:
                  - name: app
                    password: secret
                    password_hash: "%s"
                """.formatted(HASH) + BACKEND)).containsExactly(
                "sluice.yaml:4:5: users[0].password_hash: given with password (line 3)"
                        + " (expected: password or password_hash, not both)");
    }

    @Test
    void malformedHashesNameKeyAndLineButNeverTheValue() {
        String yaml = """
                users:
                  - name: a
                    password_hash: "2470C0C06DEE42FD1618BB99005ADCA2EC9D1E19"
                  - name: b
                    password_hash: "*2470C0C06DEE42FD1618BB99005ADCA2EC9D1E1Z"
                  - name: c
                    password_hash: "#2470C0C06DEE42FD1618BB99005ADCA2EC9D1E19"
                  - name: d
                    password_hash:
                """ + BACKEND;
        String expected = " (expected: * and 40 hex digits, as SELECT PASSWORD('...') or mysql.user's"
                + " authentication_string gives it)";

        List<String> problems = problems(yaml);

        assertThat(problems).containsExactly(
                "sluice.yaml:3:20: users[0].password_hash: not a mysql_native_password hash: 40 characters long" + expected,
                "sluice.yaml:5:20: users[1].password_hash: not a mysql_native_password hash: has a character that is not"
                        + " a hex digit" + expected,
                "sluice.yaml:7:20: users[2].password_hash: not a mysql_native_password hash: does not start with *" + expected,
                "sluice.yaml:9:19: users[3].password_hash: no value" + expected);
        assertThat(String.join("\n", problems)).doesNotContain("2470C0");
    }

    @Test
    void anUnquotedHashIsAYamlAliasAndTheErrorSaysToQuoteIt() {
        String yaml = "users:\n  - name: app\n    password_hash: " + HASH + "\n" + BACKEND;

        String problem = problem(yaml);

        assertThat(problem).startsWith("sluice.yaml:3:20: ").contains("password_hash: \"*...\"").doesNotContain("2470C0");
    }

    @Test
    void recordsRefuseBothOrNeither() {
        assertThatThrownBy(() -> new UserConfig("app", "x", HASH)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("both password and password_hash (expected: one of them)");
        assertThatThrownBy(() -> new UserConfig("app", null, null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("no password (expected: password or password_hash)");
    }

    private static List<String> problems(String yaml) {
        ConfigException e = catchThrowableOfType(ConfigException.class, () -> ConfigLoader.parse(yaml, "sluice.yaml", Map.of()));
        assertThat(e).as("a ConfigException for:\n" + yaml).isNotNull();
        return e.problems().stream().map(ConfigProblem::toString).toList();
    }

    private static String problem(String yaml) {
        List<String> found = problems(yaml);
        assertThat(found).hasSize(1);
        return found.get(0);
    }
}
