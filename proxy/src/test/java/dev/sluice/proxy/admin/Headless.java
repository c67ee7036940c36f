package dev.sluice.proxy.admin;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * Debian's chromium, headless, driven through Debian's chromedriver (Selenium never looks for or
 * downloads a browser or driver of its own: both paths are given). A fresh profile per browser,
 * and every background service that would reach out to the network turned off.
 */
final class Headless {

    static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    static final int WIDTH = 1280;
    static final int HEIGHT = 1200;

    private Headless() {
    }

    /** Skips the calling test, saying why, where chromium or its driver is not installed. */
    static void assumeChromium() {
        boolean present = Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER);
        if (!present) {
            System.err.println("skipped: " + CHROMIUM + " or " + CHROMEDRIVER + " is not installed");
        }
        assumeTrue(present, CHROMIUM + " or " + CHROMEDRIVER + " is not installed: install Debian's chromium and"
                + " chromium-driver (./sluice test does, as root) to run the live page's browser test");
    }

    static ChromeDriver chromium(Path profile) {
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--force-device-scale-factor=1", "--hide-scrollbars",
                "--window-size=" + WIDTH + "," + HEIGHT, "--user-data-dir=" + profile.toAbsolutePath());
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile())
                .usingAnyFreePort().withTimeout(Duration.ofSeconds(30)).build();
        ChromeDriver driver = new ChromeDriver(service, options);
        driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(20)).scriptTimeout(Duration.ofSeconds(10));
        return driver;
    }

    /** The module's build folder (target, or what -Dsluice.target names), for files a person may want to look at. */
    static Path outputFolder() throws Exception {
        Path classes = Path.of(Headless.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        return classes.getParent();
    }
}
