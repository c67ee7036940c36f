package dev.sluice.slap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class UserMapTest {

    @TempDir
    Path dir;

    @Test
    void eachCapturedUserLogsInAsItsAccountAndOthersAsTheFallbackOrTheCommandLine() throws Exception {
        Path file = Files.writeString(dir.resolve("users"), """
                # captured   replay as
                app          app:s3cret
                reporting    report_test:a pass:with colon

                batch        etl
                """);
        UserMap map = UserMap.read(file);

        assertThat(map.login("app", "cli", "pw")).isEqualTo(new UserMap.Login("app", "s3cret", true));
        assertThat(map.login("reporting", "cli", "pw")).isEqualTo(new UserMap.Login("report_test", "a pass:with colon", true));
        assertThat(map.login("batch", "cli", "pw")).as("no password: the command line's").isEqualTo(
                new UserMap.Login("etl", "pw", true));
        assertThat(map.login("other", "cli", "pw")).isEqualTo(new UserMap.Login("cli", "pw", false));
        assertThat(map.login(null, "cli", "pw")).isEqualTo(new UserMap.Login("cli", "pw", false));

        UserMap fallback = UserMap.read(Files.writeString(dir.resolve("fallback"), "* tester:t\n"));
        assertThat(fallback.login("anyone", "cli", "pw")).isEqualTo(new UserMap.Login("tester", "t", true));
    }

    @Test
    void aBadLineIsNamed() throws Exception {
        Path lonely = Files.writeString(dir.resolve("a"), "app\n");
        assertThatThrownBy(() -> UserMap.read(lonely)).hasMessage("--user-map: " + lonely + ":1: 'app' names no account"
                + " (expected: CAPTURED_USER USER[:PASSWORD], e.g. app app:secret)");
        Path twice = Files.writeString(dir.resolve("b"), "app a:1\napp b:2\n");
        assertThatThrownBy(() -> UserMap.read(twice)).hasMessage("--user-map: " + twice + ":2: app is mapped twice"
                + " (expected: one line per captured user)");
        Path noUser = Files.writeString(dir.resolve("c"), "app :pw\n");
        assertThatThrownBy(() -> UserMap.read(noUser)).hasMessageContaining(":1: no user name before the ':'");
        assertThatThrownBy(() -> UserMap.read(dir.resolve("none"))).hasMessage("--user-map: " + dir.resolve("none")
                + ": no such file");
    }
}
