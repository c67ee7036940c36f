package dev.sluice.slap;

import java.util.Locale;

/**
 * {@code --auto-generate-sql-load-type}. Like mysqlslap, only the first letter is read and
 * anything unknown means mixed.
 */
public enum LoadType {
    READ, KEY, WRITE, UPDATE, MIXED;

    public static LoadType of(String value) {
        if (value == null || value.isEmpty()) {
            return MIXED;
        }
        return switch (value.charAt(0)) {
            case 'r' -> READ;
            case 'k' -> KEY;
            case 'w' -> WRITE;
            case 'u' -> UPDATE;
            default -> MIXED;
        };
    }

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
