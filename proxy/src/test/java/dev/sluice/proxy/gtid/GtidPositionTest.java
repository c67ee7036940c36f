package dev.sluice.proxy.gtid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class GtidPositionTest {

    @Test
    void parsesAndWritesAsMariaDbDoes() {
        GtidPosition position = GtidPosition.parse("1-3-7,0-1-42");
        assertThat(position.toString()).as("sorted by domain").isEqualTo("0-1-42,1-3-7");
        assertThat(position.get(0)).isEqualTo(new Gtid(0, 1, 42));
        assertThat(position.get(2)).isNull();
        assertThat(GtidPosition.parse("")).isSameAs(GtidPosition.EMPTY);
        assertThat(GtidPosition.parse(null).isEmpty()).isTrue();
        assertThat(Gtid.parse("0-18446744073709551615-5").server()).as("unsigned").isEqualTo(-1L);
    }

    @Test
    void movesOnOnlyToALaterTransactionOfADomain() {
        GtidPosition position = GtidPosition.parse("0-1-42");
        assertThat(position.with(Gtid.parse("0-2-41"))).as("earlier: the same object").isSameAs(position);
        assertThat(position.with(Gtid.parse("0-1-42"))).isSameAs(position);
        assertThat(position.with(Gtid.parse("0-2-43")).toString()).as("a promoted server goes on").isEqualTo("0-2-43");
        assertThat(position.with(Gtid.parse("5-1-1")).toString()).isEqualTo("0-1-42,5-1-1");
        assertThat(position.merge(GtidPosition.parse("0-1-40,3-1-9")).toString()).isEqualTo("0-1-42,3-1-9");
    }

    @Test
    void coversComparesSequencesPerDomainOnly() {
        GtidPosition replica = GtidPosition.parse("0-1-42,1-1-5");
        assertThat(replica.covers(GtidPosition.parse("0-7-42"))).as("the server id does not matter").isTrue();
        assertThat(replica.covers(GtidPosition.parse("0-1-43"))).isFalse();
        assertThat(replica.covers(GtidPosition.parse("2-1-1"))).as("a domain it has not seen").isFalse();
        assertThat(replica.covers(GtidPosition.EMPTY)).isTrue();
    }

    @Test
    void badTextSaysWhatWasExpected() {
        assertThatThrownBy(() -> GtidPosition.parse("0-1")).hasMessage("GTID: \"0-1\" (expected: domain-server-sequence, e.g. 0-1-42)");
        assertThatThrownBy(() -> Gtid.parse("a-b-c")).hasMessage("GTID: \"a-b-c\" (expected: three unsigned numbers)");
    }
}
