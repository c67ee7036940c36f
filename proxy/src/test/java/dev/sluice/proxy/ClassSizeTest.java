package dev.sluice.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * No source file of the proxy grows past 400 lines: the two session kinds of the first wave grew
 * to 1,100 lines each before the redesign cut them up, and their drift showed up as bugs. A file
 * about to pass the limit is a class doing two things.
 */
class ClassSizeTest {

    private static final Path SOURCES = Path.of("src/main/java/dev/sluice/proxy");
    private static final int MAX_LINES = 400;

    @Test
    void noSourceFileIsOverTheLimit() throws IOException {
        Map<String, Long> tooLong = new TreeMap<>();
        long files;
        try (Stream<Path> paths = Files.walk(SOURCES)) {
            var sources = paths.filter(p -> p.toString().endsWith(".java")).toList();
            files = sources.size();
            for (Path source : sources) {
                long lines;
                try (Stream<String> text = Files.lines(source)) {
                    lines = text.count();
                }
                if (lines > MAX_LINES) {
                    tooLong.put(SOURCES.relativize(source).toString(), lines);
                }
            }
        }
        assertThat(files).as("sources found under %s", SOURCES).isGreaterThan(100);
        assertThat(tooLong).as("files over %d lines", MAX_LINES).isEmpty();
    }
}
