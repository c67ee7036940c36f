package dev.sluice.slap.html;

import java.util.ArrayList;
import java.util.List;

/**
 * One axis of a chart: its range, linear or in powers of two, where a value falls on it (0 at the
 * low end, 1 at the high end), and round tick values to label it with. A linear axis is widened to
 * round numbers (steps of 1, 2 or 5 times a power of ten), so the ticks fall on its ends.
 */
public final class Axis {

    private static final int TICKS = 8;

    private final double min;
    private final double max;
    private final boolean log2;
    private final double step;

    private Axis(double min, double max, boolean log2, double step) {
        this.min = min;
        this.max = max;
        this.log2 = log2;
        this.step = step;
    }

    /** From 0 to {@code highest} (at least 1 when all values are 0) rounded up to a tick. */
    public static Axis fromZero(double highest) {
        return linear(0, highest);
    }

    /** From {@code lowest} rounded down to {@code highest} rounded up, on round ticks. */
    public static Axis linear(double lowest, double highest) {
        if (!(highest > lowest)) {
            highest = lowest + (lowest == 0 ? 1 : Math.abs(lowest));
        }
        double step = niceStep((highest - lowest) / TICKS);
        return new Axis(Math.floor(lowest / step) * step, Math.ceil(highest / step - 1e-9) * step, false, step);
    }

    /**
     * Powers of two from the one at or below {@code lowest} to the one at or above
     * {@code highest}: client counts (1, 2, 4, ...) and ratios (0.5, 1, 2) read evenly spaced.
     */
    public static Axis log2(double lowest, double highest) {
        if (!(lowest > 0) || !(highest > 0)) {
            throw new IllegalArgumentException("a log2 axis needs values > 0 (found " + lowest + " to " + highest + ")");
        }
        double low = Math.pow(2, Math.floor(log2Of(lowest) + 1e-9));
        double high = Math.pow(2, Math.ceil(log2Of(highest) - 1e-9));
        if (high <= low) {
            high = low * 2;
        }
        return new Axis(low, high, true, 0);
    }

    public double min() {
        return min;
    }

    public double max() {
        return max;
    }

    public boolean isLog2() {
        return log2;
    }

    /** Where {@code value} falls: 0 at {@link #min()}, 1 at {@link #max()}. */
    public double fraction(double value) {
        if (log2) {
            return (log2Of(value) - log2Of(min)) / (log2Of(max) - log2Of(min));
        }
        return (value - min) / (max - min);
    }

    /** The values to mark: round steps, or every power of two (every other one when there are many). */
    public List<Double> ticks() {
        List<Double> ticks = new ArrayList<>();
        if (log2) {
            int from = (int) Math.round(log2Of(min));
            int to = (int) Math.round(log2Of(max));
            int every = Math.max(1, (to - from + 9) / 10);
            for (int e = from; e <= to; e += every) {
                ticks.add(Math.pow(2, e));
            }
            return ticks;
        }
        long count = Math.round((max - min) / step);
        for (long i = 0; i <= count; i++) {
            ticks.add(min + i * step);
        }
        return ticks;
    }

    /** A tick's label: as few digits as the steps need. */
    public String label(double value) {
        return Svg.number(value);
    }

    private static double niceStep(double rough) {
        double power = Math.pow(10, Math.floor(Math.log10(rough)));
        double scaled = rough / power;
        double nice = scaled <= 1 ? 1 : scaled <= 2 ? 2 : scaled <= 5 ? 5 : 10;
        return nice * power;
    }

    private static double log2Of(double value) {
        return Math.log(value) / Math.log(2);
    }
}
