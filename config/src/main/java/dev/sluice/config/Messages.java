package dev.sluice.config;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** Wording shared by every error message, so all of them quote and list things the same way. */
final class Messages {

    private static final int MAX_QUOTED = 80;

    private Messages() {
    }

    /** The text in double quotes, with quotes, backslashes and control characters escaped. */
    static String quote(String text) {
        String shown = text.length() > MAX_QUOTED ? text.substring(0, MAX_QUOTED) + "..." : text;
        StringBuilder quoted = new StringBuilder(shown.length() + 2).append('"');
        for (int i = 0; i < shown.length(); i++) {
            char c = shown.charAt(i);
            switch (c) {
                case '"' -> quoted.append("\\\"");
                case '\\' -> quoted.append("\\\\");
                case '\n' -> quoted.append("\\n");
                case '\t' -> quoted.append("\\t");
                case '\r' -> quoted.append("\\r");
                default -> {
                    if (Character.isISOControl(c)) {
                        quoted.append(String.format("\\u%04x", (int) c));
                    } else {
                        quoted.append(c);
                    }
                }
            }
        }
        return quoted.append('"').toString();
    }

    static String oneOf(List<String> names) {
        return "expected one of: " + String.join(", ", names);
    }

    /** How an enum constant is written in YAML and on the command line: {@code LEAST_LATENCY} is {@code least_latency}. */
    static String configName(Enum<?> constant) {
        return constant.name().toLowerCase(Locale.ROOT);
    }

    static <E extends Enum<E>> List<String> configNames(Class<E> type) {
        return Arrays.stream(type.getEnumConstants()).map(Messages::configName).toList();
    }

    static <E extends Enum<E>> Optional<E> fromConfigName(Class<E> type, String name) {
        return Arrays.stream(type.getEnumConstants()).filter(e -> configName(e).equals(name)).findFirst();
    }

    /**
     * Parses an enum constant by its config name.
     *
     * @throws IllegalArgumentException listing the allowed names
     */
    static <E extends Enum<E>> E parseConfigName(Class<E> type, String name) {
        return fromConfigName(type, name).orElseThrow(() -> new IllegalArgumentException(
                "unknown value " + quote(name) + " (" + oneOf(configNames(type)) + ")"));
    }
}
