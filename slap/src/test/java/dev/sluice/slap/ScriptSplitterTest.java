package dev.sluice.slap;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ScriptSplitterTest {

    @Test
    void splitsOnTheDelimiterAndSkipsOneBlankAfterIt() {
        ScriptSplitter.Split split = ScriptSplitter.split("a;  b;c", ';');
        assertThat(split.statements()).containsExactly("a", " b", "c");
        assertThat(split.count()).isEqualTo(3);
    }

    @Test
    void aTrailingDelimiterAddsNothing() {
        ScriptSplitter.Split split = ScriptSplitter.split("select 1\nselect 2\n", '\n');
        assertThat(split.statements()).containsExactly("select 1", "select 2");
        assertThat(split.count()).isEqualTo(2);
    }

    @Test
    void anEmptyPieceEndsTheListButStillCounts() {
        ScriptSplitter.Split split = ScriptSplitter.split("a;;b", ';');
        assertThat(split.statements()).containsExactly("a");
        assertThat(split.count()).isEqualTo(3);
    }

    @Test
    void emptyTextHasNoStatements() {
        ScriptSplitter.Split split = ScriptSplitter.split("", ';');
        assertThat(split.statements()).isEmpty();
        assertThat(split.count()).isZero();
    }
}
