package dev.sluice.proxy.health;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.BackendConfig;
import dev.sluice.config.HostPort;
import dev.sluice.proxy.backend.Backend;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class RoleDiscoveryTest {

    private final Backend a = backend("a", BackendConfig.Role.AUTO);
    private final Backend b = backend("b", BackendConfig.Role.AUTO);
    private final Backend fixedReplica = backend("r", BackendConfig.Role.REPLICA);
    private final List<Backend> all = List.of(a, b, fixedReplica);
    private final Map<Backend, Boolean> readOnly = new HashMap<>();
    private final RoleDiscovery discovery = new RoleDiscovery();

    private static Backend backend(String name, BackendConfig.Role role) {
        return new Backend(new BackendConfig(name, new HostPort("127.0.0.1", 3306), role, 1, 10));
    }

    private String decide(Optional<String> preferred) {
        return discovery.apply(all, RoleDiscovery.decide(all, readOnly::get, preferred));
    }

    @Test
    void theOneWritableBackendIsThePrimaryAndFollowsASwitch() {
        readOnly.put(a, false);
        readOnly.put(b, true);
        readOnly.put(fixedReplica, false);
        assertThat(decide(Optional.empty())).isNull();
        assertThat(a.isPrimary()).isTrue();
        assertThat(b.isPrimary()).isFalse();
        assertThat(fixedReplica.isPrimary()).as("a fixed role stays what the config says").isFalse();

        readOnly.put(a, true);
        readOnly.put(b, false);
        assertThat(decide(Optional.empty())).isNull();
        assertThat(a.isPrimary()).isFalse();
        assertThat(b.isPrimary()).isTrue();
    }

    @Test
    void twoWritableTakeNoWritesUnlessOneIsPreferred() {
        readOnly.put(a, false);
        readOnly.put(b, false);
        assertThat(decide(Optional.empty())).startsWith("a, b all have read_only off: no writes go to any of them");
        assertThat(a.isPrimary()).isFalse();
        assertThat(b.isPrimary()).isFalse();

        assertThat(decide(Optional.of("b"))).isNull();
        assertThat(b.isPrimary()).isTrue();
        assertThat(a.isPrimary()).isFalse();
    }

    @Test
    void noneWritableOrUnknownMeansNoPrimary() {
        assertThat(decide(Optional.empty())).as("before any check").startsWith("no backend with role auto has read_only off");
        readOnly.put(a, true);
        readOnly.put(b, true);
        assertThat(decide(Optional.of("a"))).as("a preferred backend that is read_only").isNotNull();
        assertThat(a.isPrimary()).isFalse();
    }

    @Test
    void aShunnedBackendIsNoWriterWhateverItSaidLast() {
        readOnly.put(a, false);
        readOnly.put(b, false);
        a.state(Backend.State.SHUNNED);
        assertThat(decide(Optional.empty())).as("a dead old primary does not block the promoted one").isNull();
        assertThat(b.isPrimary()).isTrue();
        assertThat(a.isPrimary()).isFalse();

        b.state(Backend.State.OFFLINE);
        assertThat(decide(Optional.empty())).isEqualTo("no backend with role auto has read_only off among those in rotation");
    }
}
