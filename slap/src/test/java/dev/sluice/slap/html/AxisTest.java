package dev.sluice.slap.html;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class AxisTest {

    @Test
    void aLinearAxisEndsOnRoundTicks() {
        Axis qps = Axis.fromZero(4787);
        assertThat(qps.min()).isZero();
        assertThat(qps.max()).isEqualTo(5000);
        assertThat(qps.ticks()).containsExactly(0.0, 1000.0, 2000.0, 3000.0, 4000.0, 5000.0);
        assertThat(Axis.linear(0, 6.02).ticks()).containsExactly(0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0);
        assertThat(Axis.fromZero(0).max()).as("all zero still has a range").isPositive();
        assertThat(qps.fraction(2500)).isEqualTo(0.5);
    }

    @Test
    void aLog2AxisSpacesPowersOfTwoEvenly() {
        Axis clients = Axis.log2(1, 24);
        assertThat(clients.min()).isEqualTo(1);
        assertThat(clients.max()).isEqualTo(32);
        assertThat(clients.ticks()).containsExactly(1.0, 2.0, 4.0, 8.0, 16.0, 32.0);
        assertThat(clients.fraction(4)).isCloseTo(0.4, within(1e-12));
        Axis ratio = Axis.log2(0.3, 2);
        assertThat(ratio.fraction(1)).isCloseTo(2.0 / 3, within(1e-12));
        assertThatThrownBy(() -> Axis.log2(0, 4)).hasMessageContaining("a log2 axis needs values > 0");
    }

    @Test
    void figuresAndTextAreWrittenForMarkup() {
        assertThat(Svg.number(1234.5)).isEqualTo("1234.5");
        assertThat(Svg.number(0.12345)).isEqualTo("0.123");
        assertThat(Svg.number(16)).isEqualTo("16");
        assertThat(Svg.number(Double.NaN)).isEqualTo("-");
        assertThat(Svg.escape("a<b & 'c' \"d\"")).isEqualTo("a&lt;b &amp; &#39;c&#39; &quot;d&quot;");
    }
}
