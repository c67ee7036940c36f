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
import dev.sluice.proxy.sql.StatementClassifier;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
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

    @Test
    void variablesPutBackAfterASetStatementExplainTheFlag() {
        SessionVariables desired = new SessionVariables("b");
        desired.set("div_precision_increment", "6");
        List<SessionStateChange> restore = List.of(new SystemVariable("div_precision_increment", "6"), FLAG);
        assertThat(apply(restore, false, desired, Set.of("div_precision_increment"), List.of()).untracked()).isFalse();
        assertThat(apply(List.of(new SystemVariable("last_gtid", "0-1-6"), new SystemVariable("DIV_PRECISION_INCREMENT", "6"),
                FLAG), false, desired, Set.of("div_precision_increment"), List.of()).untracked())
                .as("with a write's GTID, in any case").isFalse();
        assertThat(apply(restore, false, desired, Set.of(), List.of()).untracked()).as("nothing was scoped").isTrue();
        assertThat(apply(List.of(new SystemVariable("div_precision_increment", "6"), new SystemVariable("sql_mode", ""),
                FLAG), false, desired, Set.of("div_precision_increment"), List.of()).untracked())
                .as("another variable too").isTrue();
    }

    @Test
    void aPutBackVariableTakesTheConnectionsValue() {
        SessionVariables desired = new SessionVariables("b");
        desired.set("div_precision_increment", "6");
        apply(List.of(new SystemVariable("div_precision_increment", "0"), FLAG), false, desired,
                Set.of("div_precision_increment"), List.of());
        assertThat(desired.variable("div_precision_increment")).as("a multi-statement set it beside the SET STATEMENT")
                .isEqualTo("0");
        SessionVariables set = new SessionVariables("b");
        assertThat(apply(List.of(new SystemVariable("div_precision_increment", "3"), FLAG), true, set,
                Set.of("div_precision_increment"), List.of("div_precision_increment")).untracked()).isFalse();
        assertThat(set.variable("div_precision_increment")).as("SET right after the SET STATEMENT").isEqualTo("3");
    }

    /** A multi-statement's reports cannot be told apart from its SET STATEMENT's own. */
    @Test
    void aMultiStatementWithASetStatementTiesTheSession() {
        StatementClassifier classifier = new StatementClassifier();
        assertThat(SqlRouting.route(classifier.classify(
                "SET div_precision_increment = 0; SET STATEMENT div_precision_increment = 10 FOR SELECT 1/7")).pins())
                .containsExactly(PinReason.UNTRACKED_STATE);
        assertThat(SqlRouting.route(classifier.classify("SET STATEMENT div_precision_increment = 10 FOR SELECT 1/7"))
                .pins()).isEmpty();
    }

    /** With the session in schema b. */
    private static boolean untracked(List<SessionStateChange> changes, boolean executesPrepared) {
        return TrackedChanges.apply(changes, new SessionVariables("b"), readYourWrites(), false, false, executesPrepared,
                Set.of(), List.of()).untracked();
    }

    private static TrackedChanges apply(List<SessionStateChange> changes, boolean effectsInText, SessionVariables desired,
                                        Set<String> restored, List<String> setInText) {
        return TrackedChanges.apply(changes, desired, readYourWrites(), effectsInText, false, false, restored, setInText);
    }

    private static ReadYourWrites readYourWrites() {
        RoutingConfig routing = new RoutingConfig(RoutingConfig.Mode.SPLIT, RoutingConfig.Balancer.ROUND_ROBIN,
                RoutingConfig.ReadYourWrites.GTID, RoutingConfig.DEFAULT_PRIMARY_WINDOW, Duration.ofMillis(1500),
                List.of(), ReadYourWritesScope.SESSION, RoutingConfig.Discover.OFF, Optional.empty());
        return new ReadYourWrites(routing, new AcknowledgedWrites(), () -> "app");
    }
}
