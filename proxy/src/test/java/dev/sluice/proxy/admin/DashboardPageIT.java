package dev.sluice.proxy.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.sluice.config.AdminConfig;
import dev.sluice.config.HostPort;
import dev.sluice.proxy.ProxyFixture;
import dev.sluice.proxy.ProxyServer;
import dev.sluice.testkit.MariaDbCluster;
import dev.sluice.testkit.MariaDbClusterExtension;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.Rectangle;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * The live page at {@code /} of a proxy in split mode in front of the testkit primary and
 * replicas, with {@code admin.http_token} set, in Debian's headless chromium: it asks for the
 * token, then shows every backend by name with a throughput above zero while statements run;
 * the token also works from the URL fragment, which the page then drops from the address bar.
 * The screenshot must be a PNG of the window's size with text and the state badges' green on
 * it, and tesseract must read the backends' names from it.
 */
@ExtendWith(MariaDbClusterExtension.class)
@Timeout(value = 180, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DashboardPageIT {

    private static final String TOKEN = "page-test-token";
    private static final List<String> BACKENDS = List.of("primary", "replica1", "replica2");

    private static ProxyServer proxy;
    private static BackgroundLoad load;
    private static byte[] screenshot;
    private static Rectangle namesBox;

    @BeforeAll
    static void start(MariaDbCluster cluster) throws Exception {
        Headless.assumeChromium();
        try (Connection admin = cluster.primary().openAdmin(); Statement s = admin.createStatement()) {
            s.execute("CREATE OR REPLACE TABLE sluice_test.page_load (id INT PRIMARY KEY, n INT)");
        }
        cluster.awaitReplicaCatchUp(Duration.ofSeconds(30));
        HostPort free = new HostPort("127.0.0.1", 0);
        proxy = ProxyFixture.start(AdminPortsIT.config(cluster)
                .withAdmin(new AdminConfig(true, free, free, "admin", AdminPortsIT.PASSWORD, TOKEN)));
        load = BackgroundLoad.start(proxy);
    }

    @AfterAll
    static void stop() {
        if (load != null) {
            load.close();
        }
        if (proxy != null) {
            proxy.close();
        }
    }

    @Test
    @Order(1)
    void thePageAsksForTheTokenThenShowsBackendsAndThroughputLive(@TempDir Path profile) throws Exception {
        String base = "http://127.0.0.1:" + proxy.admin().httpAddress().getPort() + "/";
        HttpResponse<String> page = AdminClients.get(proxy.admin().httpAddress(), "/");
        assertThat(page.statusCode()).as("the page itself holds no data: no token needed").isEqualTo(200);
        assertThat(page.headers().firstValue("content-security-policy")).get().asString()
                .contains("default-src 'none'", "script-src 'sha256-", "connect-src 'self'");
        assertThat(AdminClients.get(proxy.admin().httpAddress(), "/api/overview").statusCode()).isEqualTo(401);

        ChromeDriver browser = Headless.chromium(profile);
        try {
            browser.get(base);
            WebElement form = browser.findElement(By.id("token-form"));
            Awaitility.await().atMost(Duration.ofSeconds(20)).until(form::isDisplayed);
            browser.findElement(By.id("token")).sendKeys(TOKEN);
            form.submit();
            awaitBackendsAndThroughput(browser);

            ((JavascriptExecutor) browser).executeScript("sessionStorage.clear()");
            browser.get("about:blank");
            browser.get(base + "#token=" + TOKEN);
            awaitBackendsAndThroughput(browser);
            assertThat(browser.getCurrentUrl()).as("the token leaves the address bar").isEqualTo(base);
            Awaitility.await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(
                    browser.findElements(By.cssSelector("#backends svg.spark polyline"))).as("sparklines drawn")
                    .hasSize(2 * BACKENDS.size()));

            namesBox = namesBox(browser);
            screenshot = browser.getScreenshotAs(OutputType.BYTES);
            Path saved = Headless.outputFolder().resolve("dashboard-page.png");
            Files.write(saved, screenshot);
            System.out.println("DashboardPageIT: the page's screenshot is " + saved);
            Object viewport = ((JavascriptExecutor) browser).executeScript(
                    "return [innerWidth * devicePixelRatio, innerHeight * devicePixelRatio]");
            checkPicture(screenshot, (List<?>) viewport);
        } finally {
            browser.quit();
        }
    }

    @Test
    @Order(2)
    void tesseractReadsTheBackendsNamesFromTheScreenshot() throws Exception {
        assumeTrue(screenshot != null, "the page test above took no screenshot (it failed or was skipped)");
        String read = Ocr.read(screenshot, namesBox);
        for (String name : BACKENDS) {
            assertThat(Ocr.foldLookalikes(read)).as("what tesseract read from the names column: %s", read)
                    .contains(Ocr.foldLookalikes(name));
        }
    }

    private static void awaitBackendsAndThroughput(ChromeDriver browser) {
        Awaitility.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
            Object shown = ((JavascriptExecutor) browser).executeScript(
                    "return [...document.querySelectorAll('#backends tr')].map(r => r.dataset.backend)");
            assertThat(String.valueOf(shown)).as("backends shown").isEqualTo(BACKENDS.toString());
            String total = browser.findElement(By.id("total-qps")).getDomAttribute("data-value");
            assertThat(Double.parseDouble(total)).as("statements/s shown").isPositive();
            assertThat(browser.findElement(By.id("status")).getText()).startsWith("live");
        });
    }

    /** The names column of the backends table, in the screenshot's pixels. */
    private static Rectangle namesBox(ChromeDriver browser) {
        List<WebElement> cells = browser.findElements(By.cssSelector("#backends td.name"));
        Rectangle first = cells.get(0).getRect();
        Rectangle last = cells.get(cells.size() - 1).getRect();
        int width = cells.stream().mapToInt(c -> c.getRect().getWidth()).max().orElseThrow();
        return new Rectangle(first.getX(), first.getY(), last.getY() + last.getHeight() - first.getY(), width);
    }

    /** A real PNG of the viewport's size, not blank: dark text, many shades, the ONLINE badges' green. */
    private static void checkPicture(byte[] png, List<?> viewport) throws Exception {
        assertThat(png).startsWith(0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n');
        BufferedImage image = ImageIO.read(new ByteArrayInputStream(png));
        assertThat(image).as("decodes as an image").isNotNull();
        // The viewport: the window's width, its height less what chromium keeps for its own bars.
        assertThat(image.getWidth()).isEqualTo(((Number) viewport.get(0)).intValue()).isEqualTo(Headless.WIDTH);
        assertThat(image.getHeight()).isEqualTo(((Number) viewport.get(1)).intValue())
                .isBetween(Headless.HEIGHT - 200, Headless.HEIGHT);
        Map<Integer, Integer> colors = new java.util.HashMap<>();
        int dark = 0;
        int green = 0;
        for (int y = 0; y < image.getHeight(); y++) {
            for (int x = 0; x < image.getWidth(); x++) {
                int rgb = image.getRGB(x, y) & 0xffffff;
                colors.merge(rgb, 1, Integer::sum);
                int r = rgb >> 16;
                int g = (rgb >> 8) & 0xff;
                int b = rgb & 0xff;
                if (r + g + b < 150) {
                    dark++;
                }
                if (Math.abs(r - 0x1a) < 24 && Math.abs(g - 0x7f) < 24 && Math.abs(b - 0x37) < 24) {
                    green++;
                }
            }
        }
        int pixels = image.getWidth() * image.getHeight();
        int background = colors.values().stream().mapToInt(Integer::intValue).max().orElse(pixels);
        assertThat(colors.size()).as("distinct colors").isGreaterThan(50);
        assertThat(pixels - background).as("pixels off the background colour").isGreaterThan(pixels / 20);
        assertThat(dark).as("dark (text) pixels").isGreaterThan(2000);
        assertThat(green).as("pixels of the ONLINE badges' green").isGreaterThan(3 * 200);
    }
}
