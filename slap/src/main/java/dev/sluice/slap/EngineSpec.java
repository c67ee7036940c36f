package dev.sluice.slap;

import java.util.ArrayList;
import java.util.List;

/**
 * One entry of {@code --engine}: a storage engine and, after a colon, table options that
 * mysqlslap appends to the generated CREATE TABLE ({@code memory:max_rows=2300}).
 */
public record EngineSpec(String name, String option) {

    public EngineSpec {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("engine name is empty");
        }
    }

    /**
     * Splits a comma list as mysqlslap's parse_option does: one blank after a comma is skipped,
     * and the first colon of an entry separates the engine from its option.
     */
    public static List<EngineSpec> parseList(String value) {
        List<EngineSpec> engines = new ArrayList<>();
        int start = 0;
        while (start <= value.length()) {
            int comma = value.indexOf(',', start);
            String entry = comma < 0 ? value.substring(start) : value.substring(start, comma);
            if (!entry.isEmpty()) {
                int colon = entry.indexOf(':');
                engines.add(colon < 0 ? new EngineSpec(entry, null)
                        : new EngineSpec(entry.substring(0, colon), entry.substring(colon + 1)));
            } else if (comma >= 0 || engines.isEmpty()) {
                throw new SlapException("Invalid value specified for the option 'engine': '" + value
                        + "' (an engine name is empty)", 1);
            }
            if (comma < 0) {
                break;
            }
            start = comma + 1;
            if (start < value.length() && Character.isWhitespace(value.charAt(start))) {
                start++;
            }
        }
        return List.copyOf(engines);
    }

    /** The suffix mysqlslap (MariaDB) appends to a generated CREATE TABLE. */
    String tableSuffix() {
        return option == null ? " Engine = " + name : " Engine = " + name + " " + option;
    }
}
