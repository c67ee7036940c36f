package dev.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RoutingRulesTest {

    private static final String BACKENDS = """
            users: [{name: app, password: app}]
            backends:
              - address: 127.0.0.1:3306
              - address: 127.0.0.1:3307
                role: replica
            """;

    @Test
    void readYourWritesAndRules() {
        SluiceConfig config = ConfigLoader.parse(BACKENDS + """
                routing:
                  mode: split
                  read_your_writes: gtid
                  gtid_wait_timeout: 250ms
                  rules:
                    - match: "^select .* from reports_"
                      route: replica
                    - digest: 5f0c1d2e3a4b5c6d
                      route: primary
                """, "rules.yaml", Map.of());
        RoutingConfig routing = config.routing();
        assertThat(routing.readYourWrites()).isEqualTo(RoutingConfig.ReadYourWrites.GTID);
        assertThat(routing.gtidWaitTimeout()).isEqualTo(Duration.ofMillis(250));
        assertThat(routing.primaryWindow()).isEqualTo(RoutingConfig.DEFAULT_PRIMARY_WINDOW);
        assertThat(routing.rules()).hasSize(2);
        assertThat(routing.rules().get(0).match().matcher("SELECT x FROM reports_2024").find()).isTrue();
        assertThat(routing.rules().get(0).route()).isEqualTo(RoutingRule.Route.REPLICA);
        assertThat(routing.rules().get(1).digest()).as("kept in upper case, as stats show digests").isEqualTo("5F0C1D2E3A4B5C6D");
    }

    @Test
    void transactionReplayIsOffUnlessAskedForAndBoundedBySize() {
        RoutingConfig defaults = ConfigLoader.parse(BACKENDS, "replay.yaml", Map.of()).routing();
        assertThat(defaults.transactionReplay()).isFalse();
        assertThat(defaults.transactionReplayMaxSize()).isEqualTo(1 << 20);

        RoutingConfig on = ConfigLoader.parse(BACKENDS + """
                routing:
                  mode: split
                  transaction_replay: true
                  transaction_replay_max_size: 64K
                """, "replay.yaml", Map.of()).routing();
        assertThat(on.transactionReplay()).isTrue();
        assertThat(on.transactionReplayMaxSize()).isEqualTo(64 << 10);
    }

    @Test
    void aBadTransactionReplayNamesTheKeyAndLine() {
        assertThatThrownBy(() -> ConfigLoader.parse(BACKENDS + """
                routing:
                  transaction_replay: maybe
                  transaction_replay_max_size: 2G
                """, "replay.yaml", Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("replay.yaml:7:")
                .hasMessageContaining("routing.transaction_replay:")
                .hasMessageContaining("replay.yaml:8:")
                .hasMessageContaining("routing.transaction_replay_max_size:");
    }

    @Test
    void backendConnectionsAreReusedAcrossSessionsUnlessTurnedOff() {
        assertThat(ConfigLoader.parse(BACKENDS, "reuse.yaml", Map.of()).routing().reuseBackendConnections()).isTrue();
        RoutingConfig off = ConfigLoader.parse(BACKENDS + """
                routing:
                  reuse_backend_connections: false
                """, "reuse.yaml", Map.of()).routing();
        assertThat(off.reuseBackendConnections()).isFalse();
    }

    @Test
    void aBadReuseSettingNamesTheKeyAndLine() {
        assertThatThrownBy(() -> ConfigLoader.parse(BACKENDS + """
                routing:
                  reuse_backend_connections: sometimes
                """, "reuse.yaml", Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("reuse.yaml:7:")
                .hasMessageContaining("routing.reuse_backend_connections:");
    }

    @Test
    void aBadRegularExpressionNamesItsLine() {
        assertThatThrownBy(() -> ConfigLoader.parse(BACKENDS + """
                routing:
                  rules:
                    - match: "select ("
                      route: replica
                """, "rules.yaml", Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("rules.yaml:8:")
                .hasMessageContaining("routing.rules[0].match")
                .hasMessageContaining("is not a regular expression");
    }

    @Test
    void aRuleNeedsExactlyOneOfMatchAndDigest() {
        assertThatThrownBy(() -> ConfigLoader.parse(BACKENDS + """
                routing:
                  rules:
                    - route: replica
                """, "rules.yaml", Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("a rule needs exactly one of match and digest");
    }
}
