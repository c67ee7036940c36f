package dev.sluice.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class GtidPositionTest {

    @Test
    void parsesOneSequencePerDomain() {
        assertThat(GtidPosition.parse("0-1-42,1-3-7").lastSeqByDomain()).isEqualTo(Map.of(0L, 42L, 1L, 7L));
    }

    @Test
    void parsesTheEmptyPosition() {
        assertThat(GtidPosition.parse("").lastSeqByDomain()).isEmpty();
        assertThat(GtidPosition.parse(null).lastSeqByDomain()).isEmpty();
    }

    @Test
    void aPositionIncludesEarlierAndEqualOnesInEveryDomain() {
        GtidPosition replica = GtidPosition.parse("0-1-42,1-3-7");
        assertThat(replica.includes(GtidPosition.parse("0-1-42"))).isTrue();
        assertThat(replica.includes(GtidPosition.parse("0-1-41,1-3-7"))).isTrue();
        assertThat(replica.includes(GtidPosition.parse(""))).isTrue();
    }

    @Test
    void aPositionDoesNotIncludeALaterOneOrAnUnknownDomain() {
        GtidPosition replica = GtidPosition.parse("0-1-42");
        assertThat(replica.includes(GtidPosition.parse("0-1-43"))).isFalse();
        assertThat(replica.includes(GtidPosition.parse("0-1-42,2-1-1"))).isFalse();
        assertThat(GtidPosition.parse("").includes(GtidPosition.parse("0-1-1"))).isFalse();
    }

    @Test
    void comparesSequencesNumericallyNotAsText() {
        assertThat(GtidPosition.parse("0-1-10").includes(GtidPosition.parse("0-1-9"))).isTrue();
    }

    @Test
    void rejectsAGtidWithoutThreeParts() {
        assertThatThrownBy(() -> GtidPosition.parse("0-1-5,0-7"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("GTID: '0-7' in '0-1-5,0-7' (expected: domain-server-sequence, e.g. 0-1-42)");
    }

    @Test
    void rejectsAGtidWithText() {
        assertThatThrownBy(() -> GtidPosition.parse("0-x-5"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("GTID: '0-x-5' in '0-x-5' (expected: three unsigned numbers)");
    }
}
