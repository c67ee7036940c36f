package dev.sluice.proxy.health;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.BackendConfig;
import dev.sluice.config.HostPort;
import dev.sluice.proxy.backend.Backend;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JoinedReplicasTest {

    private static final BackendConfig PRIMARY = new BackendConfig("db1", HostPort.parse("10.0.0.1:3306"),
            BackendConfig.Role.AUTO, 1, 50, true);
    private final Backend primary = new Backend(PRIMARY);
    private final List<List<BackendConfig>> applied = new ArrayList<>();
    private final JoinedReplicas joined = new JoinedReplicas(applied::add);

    private static Map<String, String> row(String serverId, String host, String port) {
        Map<String, String> row = new HashMap<>();
        row.put("Server_id", serverId);
        row.put("Host", host);
        row.put("Port", port);
        row.put("Master_id", "1");
        return row;
    }

    @Test
    void aListedReplicaJoinsWithRoleAutoAndThePrimarysLimits() {
        joined.seen(List.of(row("2", "10.0.0.2", "3306")), primary, List.of(PRIMARY));

        assertThat(applied).hasSize(1);
        BackendConfig replica = applied.get(0).get(0);
        assertThat(replica.name()).isEqualTo("10.0.0.2:3306");
        assertThat(replica.role()).isEqualTo(BackendConfig.Role.AUTO);
        assertThat(replica.maxConnections()).isEqualTo(50);
        assertThat(replica.sendProxyProtocol()).isTrue();
    }

    @Test
    void theSameListAgainChangesNothing() {
        joined.seen(List.of(row("2", "10.0.0.2", "3306")), primary, List.of(PRIMARY));
        joined.seen(List.of(row("2", "10.0.0.2", "3306")), primary, List.of(PRIMARY));

        assertThat(applied).hasSize(1);
    }

    @Test
    void aConfiguredAddressDoesNotJoinTwice() {
        BackendConfig configuredReplica = new BackendConfig("replica", HostPort.parse("10.0.0.2:3306"),
                BackendConfig.Role.AUTO, 1, 200);
        joined.seen(List.of(row("2", "10.0.0.2", "3306")), primary, List.of(PRIMARY, configuredReplica));

        assertThat(applied).isEmpty();
    }

    @Test
    void aReplicaWithoutAnAddressIsLeftOut() {
        joined.seen(List.of(row("2", "", "3306"), row("3", "10.0.0.3", "0")), primary, List.of(PRIMARY));

        assertThat(applied).isEmpty();
    }

    @Test
    void aReplicaLeavesOnlyAfterItsMissedAsksInARow() {
        joined.seen(List.of(row("2", "10.0.0.2", "3306")), primary, List.of(PRIMARY));
        for (int i = 1; i < JoinedReplicas.ASKS_BEFORE_LEAVING; i++) {
            joined.seen(List.of(), primary, List.of(PRIMARY));
        }
        joined.seen(List.of(row("2", "10.0.0.2", "3306")), primary, List.of(PRIMARY));
        assertThat(applied).as("back before its last chance: it stays").hasSize(1);

        for (int i = 0; i < JoinedReplicas.ASKS_BEFORE_LEAVING; i++) {
            joined.seen(List.of(), primary, List.of(PRIMARY));
        }
        assertThat(applied).hasSize(2);
        assertThat(applied.get(1)).isEmpty();
    }
}
