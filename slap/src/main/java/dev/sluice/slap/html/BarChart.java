package dev.sluice.slap.html;

import java.util.ArrayList;
import java.util.List;

/**
 * A horizontal bar chart as inline SVG: one bar per labelled row, drawn from a baseline (0, or 1
 * for ratios on a log2 axis, so that faster and slower point opposite ways) to its value. As in
 * {@link LineChart}, each bar carries its exact value in {@code data-value} and a tooltip, and the
 * axis range is on the {@code <svg>} element.
 */
public final class BarChart {

    private static final int WIDTH = LineChart.WIDTH;
    private static final int LEFT = 330;
    private static final int RIGHT = 70;
    private static final int TOP = 12;
    private static final int BOTTOM = 48;
    private static final int ROW = 22;
    private static final int LABEL_CHARS = 48;

    private record Bar(String label, double value, String color, String note) {
    }

    private final String id;
    private final String valueLabel;
    private final Axis axis;
    private final double baseline;
    private final List<Bar> bars = new ArrayList<>();

    /** @param baseline where bars start: 0, or 1 for ratios */
    public BarChart(String id, String valueLabel, Axis axis, double baseline) {
        this.id = id;
        this.valueLabel = valueLabel;
        this.axis = axis;
        this.baseline = baseline;
    }

    public BarChart bar(String label, double value, String color, String note) {
        bars.add(new Bar(label, value, color, note));
        return this;
    }

    public String svg() {
        double plotWidth = WIDTH - LEFT - RIGHT;
        double plotHeight = Math.max(1, bars.size()) * ROW;
        int height = (int) (TOP + plotHeight + BOTTOM);
        StringBuilder out = new StringBuilder();
        out.append("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" id=\"").append(Svg.escape(id))
                .append("\" viewBox=\"0 0 ").append(WIDTH).append(' ').append(height).append("\" data-plot=\"")
                .append(LEFT).append(',').append(TOP).append(',').append(Svg.px(plotWidth)).append(',')
                .append(Svg.px(plotHeight)).append("\" data-x-scale=\"").append(axis.isLog2() ? "log2" : "linear")
                .append("\" data-x-min=\"").append(Svg.exact(axis.min())).append("\" data-x-max=\"")
                .append(Svg.exact(axis.max())).append("\">\n");
        out.append("<rect x=\"").append(LEFT).append("\" y=\"").append(TOP).append("\" width=\"").append(Svg.px(plotWidth))
                .append("\" height=\"").append(Svg.px(plotHeight)).append("\" class=\"plot\"/>\n");
        double bottom = TOP + plotHeight;
        for (double tick : axis.ticks()) {
            double px = LEFT + axis.fraction(tick) * plotWidth;
            out.append("<line x1=\"").append(Svg.px(px)).append("\" y1=\"").append(TOP).append("\" x2=\"")
                    .append(Svg.px(px)).append("\" y2=\"").append(Svg.px(bottom + 5)).append("\" class=\"grid\"/>")
                    .append("<text x=\"").append(Svg.px(px)).append("\" y=\"").append(Svg.px(bottom + 18))
                    .append("\" class=\"tick\" text-anchor=\"middle\">").append(axis.label(tick)).append("</text>\n");
        }
        double base = LEFT + axis.fraction(baseline) * plotWidth;
        for (int i = 0; i < bars.size(); i++) {
            Bar bar = bars.get(i);
            double top = TOP + i * ROW + 4;
            double end = LEFT + axis.fraction(clamp(bar.value)) * plotWidth;
            out.append("<g class=\"bar\" data-label=\"").append(Svg.escape(bar.label)).append("\" data-value=\"")
                    .append(Svg.exact(bar.value)).append("\"><text x=\"").append(LEFT - 8).append("\" y=\"")
                    .append(Svg.px(top + 12)).append("\" class=\"tick\" text-anchor=\"end\"")
                    .append(bar.color.equals(Palette.BAD) ? " fill=\"" + Palette.BAD + "\"" : "").append(">")
                    .append(Svg.escape(shorten(bar.label))).append("</text><rect x=\"")
                    .append(Svg.px(Math.min(base, end))).append("\" y=\"").append(Svg.px(top)).append("\" width=\"")
                    .append(Svg.px(Math.max(1, Math.abs(end - base)))).append("\" height=\"").append(ROW - 8)
                    .append("\" fill=\"").append(bar.color).append("\"><title>").append(Svg.escape(bar.note))
                    .append("</title></rect><text x=\"").append(Svg.px(Math.max(base, end) + 4)).append("\" y=\"")
                    .append(Svg.px(top + 12)).append("\" class=\"tick\">").append(Svg.number(bar.value))
                    .append("</text></g>\n");
        }
        out.append("<line x1=\"").append(Svg.px(base)).append("\" y1=\"").append(TOP).append("\" x2=\"")
                .append(Svg.px(base)).append("\" y2=\"").append(Svg.px(bottom)).append("\" class=\"axis\"/>\n");
        out.append("<text x=\"").append(Svg.px(LEFT + plotWidth / 2)).append("\" y=\"").append(height - 10)
                .append("\" class=\"label\" text-anchor=\"middle\">").append(Svg.escape(valueLabel)).append("</text>\n");
        out.append("</svg>\n");
        return out.toString();
    }

    /** Bars past the axis end at its edge; their label still gives the value. */
    private double clamp(double value) {
        if (!Double.isFinite(value) || (axis.isLog2() && value <= 0)) {
            return baseline;
        }
        return Math.max(axis.min(), Math.min(axis.max(), value));
    }

    private static String shorten(String label) {
        String line = label.replaceAll("\\s+", " ");
        return line.length() > LABEL_CHARS ? line.substring(0, LABEL_CHARS - 3) + "..." : line;
    }
}
