package dev.sluice.slap;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Reads a jsonl capture line by line. A slow-log capture is recognised and refused with a hint;
 * a bad line names the file and line.
 */
public final class CaptureFile {

    private CaptureFile() {
    }

    /** Every statement of {@code file}, in file order. */
    public static List<CapturedEvent> read(Path file) {
        List<CapturedEvent> events = new ArrayList<>();
        forEach(file, events::add);
        return events;
    }

    /**
     * Hands each statement of {@code file} to {@code action}, in file order.
     *
     * @throws IllegalArgumentException for a file that is not a jsonl capture, naming file and line
     * @throws UncheckedIOException when the file cannot be read
     */
    @SuppressWarnings("unchecked")
    public static void forEach(Path file, Consumer<CapturedEvent> action) {
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String line;
            int number = 0;
            while ((line = in.readLine()) != null) {
                number++;
                if (line.isBlank()) {
                    continue;
                }
                if (!line.startsWith("{")) {
                    String hint = line.startsWith("#") || line.contains("started with:")
                            ? " (this looks like a slow log: read it with pt-query-digest or mysqldumpslow; replay and"
                                    + " digest need a capture in format jsonl)"
                            : " (expected: a JSON object per line, as sluice proxy --capture writes)";
                    throw new IllegalArgumentException(file + ":" + number + ": not a JSON object" + hint);
                }
                try {
                    action.accept(CapturedEvent.of((Map<String, Object>) JsonText.parse(line)));
                } catch (IllegalArgumentException | ClassCastException e) {
                    throw new IllegalArgumentException(file + ":" + number + ": " + e.getMessage(), e);
                }
            }
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException(file + ": no such file", e);
        } catch (IOException e) {
            throw new UncheckedIOException(file + ": " + e.getMessage(), e);
        }
    }
}
