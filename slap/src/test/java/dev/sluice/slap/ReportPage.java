package dev.sluice.slap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * A report page read back as XML (the reports are written well-formed): its charts, their points'
 * figures and pixel positions, and a check that it needs nothing from outside the file.
 */
final class ReportPage {

    /** One drawn point: its figures ({@code data-x}, {@code data-y}) and where it is drawn. */
    record Point(double x, double y, double cx, double cy) {
    }

    private final Document document;

    private ReportPage(Document document) {
        this.document = document;
    }

    static ReportPage read(Path file) throws Exception {
        String text = Files.readString(file);
        assertThat(text).as("no script, style sheet, image, font or link from elsewhere")
                .doesNotContain("<script", "<link", "<img", "src=", "href=", "url(", "@import");
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
        Document document = factory.newDocumentBuilder().parse(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)));
        return new ReportPage(document);
    }

    Element chart(String id) {
        NodeList svgs = document.getElementsByTagName("svg");
        for (int i = 0; i < svgs.getLength(); i++) {
            Element svg = (Element) svgs.item(i);
            if (svg.getAttribute("id").equals(id)) {
                return svg;
            }
        }
        throw new AssertionError("no chart with id " + id);
    }

    List<Point> points(Element chart, String series) {
        NodeList groups = chart.getElementsByTagName("g");
        for (int i = 0; i < groups.getLength(); i++) {
            Element g = (Element) groups.item(i);
            if (g.getAttribute("class").equals("series") && g.getAttribute("data-series").equals(series)) {
                List<Point> points = new ArrayList<>();
                NodeList circles = g.getElementsByTagName("circle");
                for (int c = 0; c < circles.getLength(); c++) {
                    Element p = (Element) circles.item(c);
                    points.add(new Point(number(p, "data-x"), number(p, "data-y"), number(p, "cx"), number(p, "cy")));
                }
                return points;
            }
        }
        throw new AssertionError("chart " + chart.getAttribute("id") + " has no series " + series);
    }

    /** The x of each vertical marker (phase starts, the knee). */
    List<Double> markers(Element chart) {
        List<Double> xs = new ArrayList<>();
        NodeList groups = chart.getElementsByTagName("g");
        for (int i = 0; i < groups.getLength(); i++) {
            Element g = (Element) groups.item(i);
            if (g.getAttribute("class").equals("marker")) {
                xs.add(number(g, "data-x"));
            }
        }
        return xs;
    }

    /** Each point sits where the chart's plot area and axis ranges put its figures (to the tenth of a pixel written). */
    void assertDrawnWhereTheAxesSay(Element chart, List<Point> points) {
        String[] plot = chart.getAttribute("data-plot").split(",");
        double left = Double.parseDouble(plot[0]);
        double top = Double.parseDouble(plot[1]);
        double width = Double.parseDouble(plot[2]);
        double height = Double.parseDouble(plot[3]);
        boolean log2 = chart.getAttribute("data-x-scale").equals("log2");
        double xMin = number(chart, "data-x-min");
        double xMax = number(chart, "data-x-max");
        double yMin = number(chart, "data-y-min");
        double yMax = number(chart, "data-y-max");
        for (Point p : points) {
            double fx = log2 ? Math.log(p.x() / xMin) / Math.log(xMax / xMin) : (p.x() - xMin) / (xMax - xMin);
            assertThat(p.cx()).as("x of %s", p).isCloseTo(left + fx * width, within(0.051));
            assertThat(p.cy()).as("y of %s", p).isCloseTo(top + height - (p.y() - yMin) / (yMax - yMin) * height,
                    within(0.051));
            assertThat(p.y()).as("inside the y axis").isBetween(yMin, yMax);
        }
    }

    private static double number(Element e, String attribute) {
        return Double.parseDouble(e.getAttribute(attribute));
    }
}
