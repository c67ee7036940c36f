package dev.sluice.slap.html;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A report page in one file: its styles inline and its charts as inline SVG, so it opens anywhere,
 * offline, and can be mailed or attached to a ticket as it is. Written as well-formed markup (every
 * element closed, attributes quoted), so that an XML parser reads it too.
 */
public final class HtmlPage {

    private static final String STYLE = """
            body { font: 14px/1.45 system-ui, sans-serif; margin: 24px auto; max-width: 1000px; color: #222; }
            h1 { font-size: 22px; margin-bottom: 4px; }
            h2 { font-size: 17px; margin-top: 28px; border-bottom: 1px solid #ddd; padding-bottom: 4px; }
            p.meta { color: #555; margin-top: 0; }
            table { border-collapse: collapse; margin: 8px 0; font-size: 13px; }
            th, td { border: 1px solid #ddd; padding: 3px 8px; text-align: right; vertical-align: top; }
            th { background: #f3f3f3; }
            td.text { text-align: left; font-family: ui-monospace, monospace; font-size: 12px; max-width: 420px;
                      overflow-wrap: anywhere; white-space: pre-wrap; }
            tr.bad td { background: #fbe9e1; }
            svg.chart { width: 100%; height: auto; display: block; margin: 4px 0 12px; }
            svg .plot { fill: #fcfcfc; stroke: #ccc; }
            svg .grid { stroke: #e6e6e6; }
            svg .axis { stroke: #888; }
            svg .tick { font-size: 11px; fill: #555; }
            svg .label { font-size: 12px; fill: #333; }
            svg .note { font-size: 11px; }
            svg circle.point:hover { r: 5; }
            """;

    private final StringBuilder body = new StringBuilder();
    private final String title;

    public HtmlPage(String title, String subtitle) {
        this.title = title;
        body.append("<h1>").append(Svg.escape(title)).append("</h1>\n");
        if (subtitle != null) {
            body.append("<p class=\"meta\">").append(Svg.escape(subtitle)).append("</p>\n");
        }
    }

    public HtmlPage heading(String text) {
        body.append("<h2>").append(Svg.escape(text)).append("</h2>\n");
        return this;
    }

    public HtmlPage paragraph(String text) {
        body.append("<p>").append(Svg.escape(text)).append("</p>\n");
        return this;
    }

    /** Markup made by this package (a chart's SVG); never text from elsewhere. */
    public HtmlPage markup(String svg) {
        body.append(svg);
        return this;
    }

    /**
     * A table; cells are text. Columns named in {@code textColumns} (by index) are left-aligned in
     * a fixed-width font (statements); rows whose index is in {@code flagged} are tinted.
     */
    public HtmlPage table(List<String> header, List<List<String>> rows, List<Integer> textColumns, List<Integer> flagged) {
        body.append("<table>\n<tr>");
        header.forEach(h -> body.append("<th>").append(Svg.escape(h)).append("</th>"));
        body.append("</tr>\n");
        for (int r = 0; r < rows.size(); r++) {
            body.append(flagged.contains(r) ? "<tr class=\"bad\">" : "<tr>");
            List<String> row = rows.get(r);
            for (int c = 0; c < row.size(); c++) {
                body.append(textColumns.contains(c) ? "<td class=\"text\">" : "<td>").append(Svg.escape(row.get(c)))
                        .append("</td>");
            }
            body.append("</tr>\n");
        }
        body.append("</table>\n");
        return this;
    }

    public String render() {
        return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n<title>" + Svg.escape(title)
                + "</title>\n<style>\n" + STYLE + "</style>\n</head>\n<body>\n" + body + "</body>\n</html>\n";
    }

    public void write(Path file) throws IOException {
        Files.writeString(file, render(), StandardCharsets.UTF_8);
    }
}
