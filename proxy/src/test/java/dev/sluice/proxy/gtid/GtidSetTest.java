package dev.sluice.proxy.gtid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class GtidSetTest {

    private static final String A = "3e11fa47-71ca-11e1-9e33-c80aa9429562";
    private static final String B = "8a94f357-aab4-11df-86ab-c80aa9429562";

    @Test
    void parsesAndWritesAsMySqlDoes() {
        GtidSet set = GtidSet.parse("3E11FA47-71CA-11E1-9E33-C80AA9429562:1-5:7, " + B + ":3");
        assertThat(set.toString()).as("lower case, sources sorted").isEqualTo(A + ":1-5:7," + B + ":3");
        assertThat(GtidSet.parse(A + ":7:1-3:4-5").toString()).as("sorted, adjacent merged").isEqualTo(A + ":1-5:7");
        assertThat(GtidSet.parse(A + ":1-5,\n" + B + ":1-2")).as("@@gtid_executed's line breaks")
                .isEqualTo(GtidSet.parse(B + ":1-2," + A + ":1-5"));
        assertThat(GtidSet.parse("")).isSameAs(GtidSet.EMPTY);
        assertThat(GtidSet.parse(null).isEmpty()).isTrue();
    }

    @Test
    void parsesMySql84TaggedGtids() {
        GtidSet set = GtidSet.parse(A + ":1-5:Batch_1:1-3:9");
        assertThat(set.sources()).containsExactly(A, A + ":batch_1");
        assertThat(set.toString()).isEqualTo(A + ":1-5," + A + ":batch_1:1-3:9");
        assertThat(set.contains(GtidSet.parse(A + ":batch_1:2"))).isTrue();
        assertThat(set.contains(GtidSet.parse(A + ":batch_1:4"))).as("a tag is a source of its own").isFalse();
    }

    @Test
    void refusesWhatIsNotAGtidSet() {
        assertThatThrownBy(() -> GtidSet.parse("0-1-42")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("\"0-1-42\"").hasMessageContaining("expected: a server uuid");
        assertThatThrownBy(() -> GtidSet.parse(A + ":1-5,4-9")).as("an interval without its uuid")
                .hasMessageContaining("\"4-9\"");
        assertThatThrownBy(() -> GtidSet.parse(A)).hasMessageContaining("expected: uuid:interval");
        assertThatThrownBy(() -> GtidSet.parse(A + ":5-3")).hasMessageContaining("1 <= start <= end");
        assertThatThrownBy(() -> GtidSet.parse(A + ":0")).hasMessageContaining("1 <= start <= end");
        assertThatThrownBy(() -> GtidSet.parse(A + ":1-x")).hasMessageContaining("expected: start-end");
        assertThatThrownBy(() -> GtidSet.parse(A + ":1:-tag")).hasMessageContaining("an interval such as 1-5, or a tag");
        assertThatThrownBy(() -> GtidSet.parse(A + ":1-5:batch")).hasMessageContaining("an interval after the tag");
    }

    @Test
    void unionHasEveryTransactionOfBoth() {
        GtidSet set = GtidSet.parse(A + ":1-3:10");
        GtidSet more = set.union(GtidSet.parse(A + ":4-6:12," + B + ":1"));
        assertThat(more.toString()).isEqualTo(A + ":1-6:10:12," + B + ":1");
        assertThat(more.union(GtidSet.parse(A + ":7-9:11")).toString()).as("gaps close").isEqualTo(A + ":1-12," + B + ":1");
        assertThat(set.union(GtidSet.parse(A + ":2-3"))).as("nothing new: the same object").isSameAs(set);
        assertThat(GtidSet.EMPTY.union(set)).isSameAs(set);
        assertThat(set.toString()).as("immutable").isEqualTo(A + ":1-3:10");
    }

    @Test
    void containsEachTransactionNotJustTheLatest() {
        GtidSet executed = GtidSet.parse(A + ":1-5:7-9," + B + ":1-100");
        assertThat(executed.contains(GtidSet.parse(A + ":3-5:8," + B + ":50"))).isTrue();
        assertThat(executed.contains(GtidSet.parse(A + ":6"))).as("a parallel applier's gap").isFalse();
        assertThat(executed.contains(GtidSet.parse(A + ":5-7"))).isFalse();
        assertThat(executed.contains(GtidSet.parse("c0ffee00-0000-0000-0000-000000000000:1"))).isFalse();
        assertThat(executed.contains(GtidSet.EMPTY)).isTrue();
        assertThat(GtidSet.EMPTY.contains(executed)).isFalse();
    }

    /** A session's own writes interleave with others': its set must not grow without end. */
    @Test
    void aLongSessionsSetStaysBoundedByFillingItsOldestGaps() {
        GtidSet own = GtidSet.EMPTY;
        for (int i = 1; i <= 1000; i++) {
            own = own.union(GtidSet.parse(A + ":" + (2 * i)));
        }
        String text = own.toString();
        assertThat(text.split(":")).hasSize(1 + GtidSet.MAX_INTERVALS);
        assertThat(text).startsWith(A + ":2-1874:1876:");
        assertThat(own.contains(GtidSet.parse(A + ":2000"))).as("the latest write is kept").isTrue();
        assertThat(own.contains(GtidSet.parse(A + ":1"))).as("never below the first write").isFalse();
    }

    @Test
    void waitsWithWaitForExecutedGtidSet() {
        assertThat(GtidSet.parse(A + ":1-5").waitStatement(1.0))
                .isEqualTo("SELECT WAIT_FOR_EXECUTED_GTID_SET('" + A + ":1-5', 1.0)");
        assertThat(GtidPosition.parse("0-1-42").waitStatement(0.5)).isEqualTo("SELECT MASTER_GTID_WAIT('0-1-42', 0.5)");
    }
}
