package dev.sluice.proxy.admin;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import javax.imageio.ImageIO;
import org.openqa.selenium.Rectangle;

/** Text read from part of a screenshot by Debian's tesseract (the tesseract-ocr package). */
final class Ocr {

    private static final Path TESSERACT = Path.of("/usr/bin/tesseract");
    /** Tesseract reads best at a text height well above a screen's: the crop is scaled up this much. */
    private static final int SCALE = 3;
    private static final int MARGIN = 8;

    private Ocr() {
    }

    /** What tesseract reads in {@code box} of {@code png}; skips the calling test, saying why, without tesseract. */
    static String read(byte[] png, Rectangle box) throws Exception {
        boolean present = Files.isExecutable(TESSERACT);
        if (!present) {
            System.err.println("skipped: " + TESSERACT + " is not installed");
        }
        assumeTrue(present, TESSERACT + " is not installed: install Debian's tesseract-ocr (./sluice test does, as"
                + " root) to read the screenshot");
        BufferedImage screen = ImageIO.read(new ByteArrayInputStream(png));
        int x = Math.max(0, box.getX() - MARGIN);
        int y = Math.max(0, box.getY() - MARGIN);
        int width = Math.min(screen.getWidth() - x, box.getWidth() + 2 * MARGIN);
        int height = Math.min(screen.getHeight() - y, box.getHeight() + 2 * MARGIN);
        BufferedImage scaled = new BufferedImage(width * SCALE, height * SCALE, BufferedImage.TYPE_BYTE_GRAY);
        Graphics2D g = scaled.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_INTERPOLATION, RenderingHints.VALUE_INTERPOLATION_BICUBIC);
        g.drawImage(screen.getSubimage(x, y, width, height), 0, 0, width * SCALE, height * SCALE, null);
        g.dispose();
        Path image = Files.createTempFile("ocr", ".png");
        Path text = Files.createTempFile("ocr", ".txt");
        try {
            ImageIO.write(scaled, "png", image.toFile());
            // --psm 6: one block of text, the column as it is.
            Process tesseract = new ProcessBuilder(TESSERACT.toString(), image.toString(), "stdout", "--psm", "6")
                    .redirectOutput(text.toFile()).redirectError(ProcessBuilder.Redirect.DISCARD)
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
            if (!tesseract.waitFor(60, TimeUnit.SECONDS)) {
                tesseract.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
                throw new AssertionError("tesseract did not finish within 60 s");
            }
            String read = Files.readString(text, StandardCharsets.UTF_8);
            assertExit(tesseract.exitValue(), read);
            return read;
        } finally {
            Files.deleteIfExists(image);
            Files.deleteIfExists(text);
        }
    }

    /**
     * The text with the characters tesseract cannot tell apart in a sans-serif font made one:
     * whatever the font, it reads "replica1" as "replical" (its model of English words wins).
     */
    static String foldLookalikes(String text) {
        return text.replaceAll("[1lI|]", "1").replaceAll("[0O]", "0");
    }

    private static void assertExit(int code, String read) {
        if (code != 0) {
            throw new AssertionError("tesseract exited with " + code + " (read: " + read + ")");
        }
    }
}
