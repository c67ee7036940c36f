package dev.sluice.proxy.split;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.RoutingConfig;
import dev.sluice.config.RoutingConfig.ReadYourWritesScope;
import dev.sluice.protocol.packet.SessionStateChange;
import dev.sluice.protocol.packet.SessionStateChange.Schema;
import dev.sluice.protocol.packet.SessionStateChange.StateChange;
import dev.sluice.protocol.packet.SessionStateChange.SystemVariable;
import dev.sluice.proxy.backend.SessionVariables;
import dev.sluice.proxy.gtid.AcknowledgedWrites;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** When an OK's state-change flag means state the proxy cannot see (and the session must stay). */
class TrackedChangesTest {

    private static final StateChange FLAG = new StateChange("1", false);

    @Test
    void anExecutionInAnotherSchemaRestatesTheSessionsSchemaAndNothingElse() {
        assertThat(untracked(List.of(new Schema("b"), FLAG), true)).isFalse();
        assertThat(untracked(List.of(new SystemVariable("last_gtid", "0-1-5"), new Schema("b"), FLAG), true))
                .as("a write's GTID comes along").isFalse();
    }

    @Test
    void anythingMoreThanTheRestatedSchemaStillCounts() {
        assertThat(untracked(List.of(new Schema("b"), FLAG), false)).as("not an execution").isTrue();
        assertThat(untracked(List.of(new Schema("c"), FLAG), true)).as("another schema").isTrue();
        assertThat(untracked(List.of(new SystemVariable("sql_mode", ""), new Schema("b"), FLAG), true))
                .as("a variable too").isTrue();
        assertThat(untracked(List.of(FLAG), true)).as("the flag alone").isTrue();
    }

    /** With the session in schema b. */
    private static boolean untracked(List<SessionStateChange> changes, boolean executesPrepared) {
        RoutingConfig routing = new RoutingConfig(RoutingConfig.Mode.SPLIT, RoutingConfig.Balancer.ROUND_ROBIN,
                RoutingConfig.ReadYourWrites.GTID, RoutingConfig.DEFAULT_PRIMARY_WINDOW, Duration.ofMillis(1500),
                List.of(), ReadYourWritesScope.SESSION, RoutingConfig.Discover.OFF, Optional.empty());
        ReadYourWrites readYourWrites = new ReadYourWrites(routing, new AcknowledgedWrites(), () -> "app");
        return TrackedChanges.apply(changes, new SessionVariables("b"), readYourWrites, false, false, executesPrepared)
                .untracked();
    }
}
