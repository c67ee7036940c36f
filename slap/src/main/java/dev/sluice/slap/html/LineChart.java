package dev.sluice.slap.html;

import java.util.ArrayList;
import java.util.List;

/**
 * A line chart as inline SVG: one or more series of (x, y) points over a shared x axis and a y
 * axis from zero, vertical markers (phase boundaries, a sweep's knee), a legend. Every point is
 * also a small circle with a tooltip ({@code <title>}) and its exact values in {@code data-x} and
 * {@code data-y}; the plot area and axis ranges are on the {@code <svg>} element
 * ({@code data-plot}, {@code data-x-min}...), so a reader can check that each point is drawn where
 * its figures say. A point whose y is NaN is a gap: the line stops there and starts again after it.
 */
public final class LineChart {

    static final int WIDTH = 960;
    static final int HEIGHT = 340;
    private static final int LEFT = 78;
    private static final int RIGHT = 24;
    private static final int TOP = 40;
    private static final int BOTTOM = 52;

    /**
     * One line; {@code notes} (may be null) are the points' tooltips. With {@code starts}, each
     * point is an average over [start, x] and is drawn as a level step across it.
     */
    private record Series(String name, String color, boolean dashed, double[] starts, double[] xs, double[] ys,
                          List<String> notes) {
    }

    private record Marker(double x, String label, String color) {
    }

    private final String id;
    private final String xLabel;
    private final String yLabel;
    private final List<Series> series = new ArrayList<>();
    private final List<Marker> markers = new ArrayList<>();
    private Axis xAxis;

    /** @param id the {@code id} of the {@code <svg>} element, unique in the page */
    public LineChart(String id, String xLabel, String yLabel) {
        this.id = id;
        this.xLabel = xLabel;
        this.yLabel = yLabel;
    }

    /** The x axis; by default linear over the points' range. */
    public LineChart xAxis(Axis axis) {
        this.xAxis = axis;
        return this;
    }

    public LineChart series(String name, String color, boolean dashed, double[] xs, double[] ys, List<String> notes) {
        return add(name, color, dashed, null, xs, ys, notes);
    }

    /**
     * Figures that each hold over a span (an interval's throughput): a level line from
     * {@code starts[i]} to {@code ends[i]} at {@code ys[i]}, its point at the end.
     */
    public LineChart steps(String name, String color, boolean dashed, double[] starts, double[] ends, double[] ys,
                           List<String> notes) {
        if (starts.length != ends.length) {
            throw new IllegalArgumentException("series " + name + ": " + starts.length + " starts, " + ends.length
                    + " ends (expected: as many of each)");
        }
        return add(name, color, dashed, starts.clone(), ends, ys, notes);
    }

    private LineChart add(String name, String color, boolean dashed, double[] starts, double[] xs, double[] ys,
                          List<String> notes) {
        if (xs.length != ys.length || (notes != null && notes.size() != xs.length)) {
            throw new IllegalArgumentException("series " + name + ": " + xs.length + " x values, " + ys.length
                    + " y values" + (notes == null ? "" : ", " + notes.size() + " notes") + " (expected: as many of each)");
        }
        series.add(new Series(name, color, dashed, starts, xs.clone(), ys.clone(),
                notes == null ? null : List.copyOf(notes)));
        return this;
    }

    /** A vertical line across the plot at {@code x}, labelled at its top. */
    public LineChart marker(double x, String label, String color) {
        markers.add(new Marker(x, label, color));
        return this;
    }

    public String svg() {
        double plotWidth = WIDTH - LEFT - RIGHT;
        double plotHeight = HEIGHT - TOP - BOTTOM;
        Axis x = xAxis != null ? xAxis : Axis.linear(min(true), max(true));
        Axis y = Axis.fromZero(max(false));
        StringBuilder out = new StringBuilder();
        out.append("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" id=\"").append(Svg.escape(id))
                .append("\" viewBox=\"0 0 ").append(WIDTH).append(' ').append(HEIGHT).append("\" data-plot=\"")
                .append(LEFT).append(',').append(TOP).append(',').append(Svg.px(plotWidth)).append(',')
                .append(Svg.px(plotHeight)).append("\" data-x-scale=\"").append(x.isLog2() ? "log2" : "linear")
                .append("\" data-x-min=\"").append(Svg.exact(x.min())).append("\" data-x-max=\"")
                .append(Svg.exact(x.max())).append("\" data-y-min=\"").append(Svg.exact(y.min()))
                .append("\" data-y-max=\"").append(Svg.exact(y.max())).append("\">\n");
        grid(out, x, y, plotWidth, plotHeight);
        for (int i = 0; i < markers.size(); i++) {
            Marker m = markers.get(i);
            double px = LEFT + x.fraction(m.x) * plotWidth;
            // Near the right edge the label goes to the line's left, where there is room.
            boolean leftOf = x.fraction(m.x) > 0.8;
            out.append("<g class=\"marker\" data-x=\"").append(Svg.exact(m.x)).append("\"><line x1=\"").append(Svg.px(px))
                    .append("\" y1=\"").append(TOP).append("\" x2=\"").append(Svg.px(px)).append("\" y2=\"")
                    .append(Svg.px(TOP + plotHeight)).append("\" stroke=\"").append(m.color)
                    .append("\" stroke-dasharray=\"4 3\"/><text x=\"").append(Svg.px(px + 4)).append("\" y=\"")
                    .append(TOP + 12 + 13 * (i % 3)).append("\" fill=\"").append(m.color).append("\" class=\"note\">")
                    .append(Svg.escape(m.label)).append("</text></g>\n");
        }
        for (Series s : series) {
            plot(out, s, x, y, plotWidth, plotHeight);
        }
        legend(out);
        out.append("</svg>\n");
        return out.toString();
    }

    private void grid(StringBuilder out, Axis x, Axis y, double plotWidth, double plotHeight) {
        double bottom = TOP + plotHeight;
        out.append("<rect x=\"").append(LEFT).append("\" y=\"").append(TOP).append("\" width=\"").append(Svg.px(plotWidth))
                .append("\" height=\"").append(Svg.px(plotHeight)).append("\" class=\"plot\"/>\n");
        for (double tick : y.ticks()) {
            double py = bottom - y.fraction(tick) * plotHeight;
            out.append("<line x1=\"").append(LEFT).append("\" y1=\"").append(Svg.px(py)).append("\" x2=\"")
                    .append(Svg.px(LEFT + plotWidth)).append("\" y2=\"").append(Svg.px(py)).append("\" class=\"grid\"/>")
                    .append("<text x=\"").append(LEFT - 6).append("\" y=\"").append(Svg.px(py + 4))
                    .append("\" class=\"tick\" text-anchor=\"end\">").append(y.label(tick)).append("</text>\n");
        }
        for (double tick : x.ticks()) {
            double px = LEFT + x.fraction(tick) * plotWidth;
            out.append("<line x1=\"").append(Svg.px(px)).append("\" y1=\"").append(Svg.px(bottom)).append("\" x2=\"")
                    .append(Svg.px(px)).append("\" y2=\"").append(Svg.px(bottom + 5)).append("\" class=\"axis\"/>")
                    .append("<text x=\"").append(Svg.px(px)).append("\" y=\"").append(Svg.px(bottom + 18))
                    .append("\" class=\"tick\" text-anchor=\"middle\">").append(x.label(tick)).append("</text>\n");
        }
        out.append("<text x=\"").append(Svg.px(LEFT + plotWidth / 2)).append("\" y=\"").append(HEIGHT - 10)
                .append("\" class=\"label\" text-anchor=\"middle\">").append(Svg.escape(xLabel)).append("</text>\n");
        out.append("<text x=\"16\" y=\"").append(Svg.px(TOP + plotHeight / 2)).append("\" class=\"label\"")
                .append(" text-anchor=\"middle\" transform=\"rotate(-90 16 ").append(Svg.px(TOP + plotHeight / 2))
                .append(")\">").append(Svg.escape(yLabel)).append("</text>\n");
    }

    private static void plot(StringBuilder out, Series s, Axis x, Axis y, double plotWidth, double plotHeight) {
        double bottom = TOP + plotHeight;
        out.append("<g class=\"series\" data-series=\"").append(Svg.escape(s.name)).append("\">\n");
        int from = 0;
        while (from < s.xs.length) {
            int to = from;
            while (to < s.xs.length && !Double.isNaN(s.ys[to])) {
                to++;
            }
            if (to > from) {
                out.append("<polyline fill=\"none\" stroke=\"").append(s.color).append("\" stroke-width=\"2\"")
                        .append(s.dashed ? " stroke-dasharray=\"6 4\"" : "").append(" points=\"");
                for (int i = from; i < to; i++) {
                    String py = Svg.px(bottom - y.fraction(s.ys[i]) * plotHeight);
                    if (s.starts != null) {
                        out.append(i == from ? "" : " ").append(Svg.px(LEFT + x.fraction(s.starts[i]) * plotWidth))
                                .append(',').append(py);
                    }
                    out.append(i == from && s.starts == null ? "" : " ")
                            .append(Svg.px(LEFT + x.fraction(s.xs[i]) * plotWidth)).append(',').append(py);
                }
                out.append("\"/>\n");
            }
            from = to + 1;
        }
        for (int i = 0; i < s.xs.length; i++) {
            if (Double.isNaN(s.ys[i])) {
                continue;
            }
            String note = s.notes != null ? s.notes.get(i)
                    : s.name + ": " + Svg.number(s.ys[i]) + " at " + Svg.number(s.xs[i]);
            out.append("<circle class=\"point\" cx=\"").append(Svg.px(LEFT + x.fraction(s.xs[i]) * plotWidth))
                    .append("\" cy=\"").append(Svg.px(bottom - y.fraction(s.ys[i]) * plotHeight))
                    .append("\" r=\"3\" fill=\"").append(s.color).append("\" data-x=\"").append(Svg.exact(s.xs[i]))
                    .append("\" data-y=\"").append(Svg.exact(s.ys[i])).append("\"><title>").append(Svg.escape(note))
                    .append("</title></circle>\n");
        }
        out.append("</g>\n");
    }

    private void legend(StringBuilder out) {
        double at = LEFT;
        for (Series s : series) {
            out.append("<g class=\"legend\"><line x1=\"").append(Svg.px(at)).append("\" y1=\"18\" x2=\"")
                    .append(Svg.px(at + 24)).append("\" y2=\"18\" stroke=\"").append(s.color)
                    .append("\" stroke-width=\"2\"").append(s.dashed ? " stroke-dasharray=\"6 4\"" : "")
                    .append("/><text x=\"").append(Svg.px(at + 30)).append("\" y=\"22\" class=\"label\">")
                    .append(Svg.escape(s.name)).append("</text></g>\n");
            at += 44 + 7.5 * s.name.length();
        }
    }

    private double min(boolean ofX) {
        double min = Double.POSITIVE_INFINITY;
        for (Series s : series) {
            for (double v : ofX ? (s.starts != null ? s.starts : s.xs) : s.ys) {
                if (Double.isFinite(v)) {
                    min = Math.min(min, v);
                }
            }
        }
        for (Marker m : markers) {
            min = ofX ? Math.min(min, m.x) : min;
        }
        return Double.isFinite(min) ? min : 0;
    }

    private double max(boolean ofX) {
        double max = Double.NEGATIVE_INFINITY;
        for (Series s : series) {
            for (double v : ofX ? s.xs : s.ys) {
                if (Double.isFinite(v)) {
                    max = Math.max(max, v);
                }
            }
        }
        for (Marker m : markers) {
            max = ofX ? Math.max(max, m.x) : max;
        }
        return Double.isFinite(max) ? max : 1;
    }
}
