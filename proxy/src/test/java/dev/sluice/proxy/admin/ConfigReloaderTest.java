package dev.sluice.proxy.admin;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.AdminConfig;
import dev.sluice.config.BackendConfig;
import dev.sluice.config.HostPort;
import dev.sluice.config.LimitsConfig;
import dev.sluice.config.RoutingConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.config.TimeoutsConfig;
import dev.sluice.config.UserConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a reload may change at run time, and what it keeps until a restart. */
class ConfigReloaderTest {

    private static final SluiceConfig RUNNING = SluiceConfig.defaults()
            .withUsers(List.of(new UserConfig("app", "app")))
            .withBackends(List.of(BackendConfig.of(HostPort.parse("127.0.0.1:3306"))))
            .withAdmin(AdminConfig.defaults());

    @Test
    void restartOnlySettingsKeepTheirRunningValues() {
        TimeoutsConfig d = TimeoutsConfig.defaults();
        SluiceConfig loaded = RUNNING
                .withListen(HostPort.parse("0.0.0.0:5050"))
                .withRouting(new RoutingConfig(RoutingConfig.Mode.SESSION, RoutingConfig.Balancer.LEAST_LATENCY))
                .withAdmin(AdminConfig.onFreePorts("root", "x"))
                .withUsers(List.of(new UserConfig("app", "new"), new UserConfig("other", "o")))
                .withLimits(new LimitsConfig(5, 9, true, 4096))
                .withTimeouts(new TimeoutsConfig(Duration.ofSeconds(9), Duration.ofSeconds(2), Duration.ofMinutes(1),
                        Duration.ZERO, d.poolIdle(), d.shutdown(), d.backendRetry()));
        List<String> kept = new ArrayList<>();

        SluiceConfig merged = ConfigReloader.merge(RUNNING, loaded, kept);

        assertThat(merged.listen()).isEqualTo(RUNNING.listen());
        assertThat(merged.routing().balancer()).isEqualTo(RoutingConfig.Balancer.ROUND_ROBIN);
        assertThat(merged.admin()).isEqualTo(RUNNING.admin());
        assertThat(merged.users()).as("users apply").isEqualTo(loaded.users());
        assertThat(merged.limits()).as("limits apply, the backend queue's too").isEqualTo(new LimitsConfig(5, 9, true, 4096));
        assertThat(merged.timeouts().connect()).isEqualTo(d.connect());
        assertThat(merged.timeouts().backendQueue()).as("applies to the pools").isEqualTo(Duration.ZERO);
        assertThat(merged.timeouts().handshake()).isEqualTo(Duration.ofSeconds(2));
        assertThat(merged.timeouts().clientIdle()).isEqualTo(Duration.ofMinutes(1));
        assertThat(kept).containsExactly("listen 0.0.0.0:4040", "routing.mode session, routing.balancer round_robin",
                "admin", "timeouts.connect and backend_retry");
    }

    @Test
    void switchingAuthModeWaitsForARestart() {
        List<String> kept = new ArrayList<>();
        SluiceConfig merged = ConfigReloader.merge(RUNNING, RUNNING.withUsers(List.of()), kept);
        assertThat(merged.users()).isEqualTo(RUNNING.users());
        assertThat(kept).containsExactly("users (auth by the proxy)");
        assertThat(ConfigReloader.merge(RUNNING, RUNNING, new ArrayList<>())).isEqualTo(RUNNING);
    }
}
