package dev.sluice.slap;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits {@code --query}, {@code --create}, {@code --pre-query} and {@code --post-query} text the
 * way mysqlslap's parse_delimiter does: on the first character of the delimiter, skipping one
 * blank after each delimiter. An empty piece ends the runnable list (mysqlslap stops at the first
 * empty statement) but still counts towards the number of statements, which is the per-client
 * query count of a {@code --query} run.
 */
final class ScriptSplitter {

    /** The statements up to the first empty one, and how many pieces mysqlslap counted. */
    record Split(List<String> statements, int count) { }

    private ScriptSplitter() {
    }

    static Split split(String script, char delimiter) {
        List<String> pieces = new ArrayList<>();
        int count = 0;
        int start = 0;
        int next;
        while ((next = script.indexOf(delimiter, start)) >= 0) {
            pieces.add(script.substring(start, next));
            count++;
            start = next + 1;
            if (start < script.length() && Character.isWhitespace(script.charAt(start))) {
                start++;
            }
        }
        if (start < script.length()) {
            pieces.add(script.substring(start));
            count++;
        }
        List<String> runnable = new ArrayList<>();
        for (String piece : pieces) {
            if (piece.isEmpty()) {
                break;
            }
            runnable.add(piece);
        }
        return new Split(List.copyOf(runnable), count);
    }
}
