package dev.sluice.slap.html;

import java.math.BigDecimal;
import java.util.Locale;

/** Text and numbers as SVG and HTML want them: escaped, and numbers without a locale's marks. */
public final class Svg {

    private Svg() {
    }

    /** Escapes the five characters markup gives meaning to, so any text can go in an element or attribute. */
    public static String escape(String text) {
        if (text == null) {
            return "";
        }
        StringBuilder out = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> out.append(c < 0x20 && c != '\n' && c != '\t' ? ' ' : c);
            }
        }
        return out.toString();
    }

    /** A figure for people: up to three decimals, none trailing ({@code 1234.5}, {@code 0.125}, {@code 16}). */
    public static String number(double value) {
        if (!Double.isFinite(value)) {
            return "-";
        }
        String text = BigDecimal.valueOf(value).setScale(3, java.math.RoundingMode.HALF_UP).stripTrailingZeros()
                .toPlainString();
        return text.equals("-0") ? "0" : text;
    }

    /** A pixel position, to a tenth of a pixel. */
    public static String px(double value) {
        return String.format(Locale.ROOT, "%.1f", value);
    }

    /**
     * A data value kept exactly in an attribute ({@code data-y}), so that a reader of the file gets
     * the figure the chart was drawn from, not one read back from pixels.
     */
    public static String exact(double value) {
        return Double.isFinite(value) ? BigDecimal.valueOf(value).toPlainString() : "NaN";
    }
}
