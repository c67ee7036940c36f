package dev.sluice.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ClusterSpecTest {

    @Test
    void defaultsToAPrimaryAndTwoReplicasWith2000Connections() {
        ClusterSpec spec = ClusterSpec.defaults();
        assertThat(spec.replicas()).isEqualTo(2);
        assertThat(spec.maxConnections()).isEqualTo(2000);
        assertThat(spec.extraServerArgs()).isEmpty();
        assertThat(spec.createTestSchema()).isTrue();
        assertThat(spec.startTimeout()).isEqualTo(Duration.ofSeconds(60));
    }

    @Test
    void builderSetsEverySetting() {
        ClusterSpec spec = ClusterSpec.builder()
                .replicas(0)
                .maxConnections(5000)
                .extraServerArgs("--wait-timeout=60", "--innodb-buffer-pool-size=64M")
                .createTestSchema(false)
                .startTimeout(Duration.ofSeconds(5))
                .build();
        assertThat(spec).isEqualTo(new ClusterSpec(0, 5000,
                List.of("--wait-timeout=60", "--innodb-buffer-pool-size=64M"), false, Duration.ofSeconds(5)));
        assertThat(spec.toBuilder().build()).isEqualTo(spec);
    }

    @Test
    void copiesTheArgumentList() {
        List<String> args = new ArrayList<>(List.of("--wait-timeout=60"));
        ClusterSpec spec = ClusterSpec.builder().extraServerArgs(args).build();
        args.add("--skip-log-bin");
        assertThat(spec.extraServerArgs()).containsExactly("--wait-timeout=60");
    }

    @Test
    void rejectsANegativeOrHugeReplicaCount() {
        assertThatThrownBy(() -> ClusterSpec.builder().replicas(-1).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("replicas: -1 (expected: 0 to 8)");
        assertThatThrownBy(() -> ClusterSpec.builder().replicas(9).build())
                .hasMessage("replicas: 9 (expected: 0 to 8)");
    }

    @Test
    void rejectsMaxConnectionsOutOfRange() {
        assertThatThrownBy(() -> ClusterSpec.builder().maxConnections(5).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("maxConnections: 5 (expected: 10 to 100000)");
    }

    @Test
    void rejectsAnArgumentThatIsNotAnOption() {
        assertThatThrownBy(() -> ClusterSpec.builder().extraServerArgs("--wait-timeout=60", "max_connections=5").build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("extraServerArgs[1]: 'max_connections=5'"
                        + " (expected: a mariadbd option such as --innodb-buffer-pool-size=64M)");
        assertThatThrownBy(() -> ClusterSpec.builder().extraServerArgs((String) null).build())
                .hasMessageStartingWith("extraServerArgs[0]: null");
    }

    @Test
    void rejectsANonPositiveStartTimeout() {
        assertThatThrownBy(() -> ClusterSpec.builder().startTimeout(Duration.ZERO).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("startTimeout: PT0S (expected: > 0)");
    }
}
