package dev.sluice.proxy.sql;

import java.util.Arrays;

/**
 * The open parentheses of a statement being normalized, each knowing where it starts in the
 * output, whether it follows IN, and whether everything inside so far was a literal (or a
 * parenthesised group of literals, so that {@code IN ((1, 2), (3, 4))} also folds).
 */
final class LiteralLists {
    private static final int IN_LIST = 1;
    private static final int ALL_LITERAL = 2;
    private static final int NON_EMPTY = 4;

    private int[] starts = new int[16];
    private int[] flags = new int[16];
    private int open;

    void clear() {
        open = 0;
    }

    void push(int outputStart, boolean afterIn) {
        if (open == starts.length) {
            starts = Arrays.copyOf(starts, open * 2);
            flags = Arrays.copyOf(flags, open * 2);
        }
        starts[open] = outputStart;
        flags[open] = (afterIn ? IN_LIST : 0) | ALL_LITERAL;
        open++;
    }

    /** A literal (or a placeholder) inside the innermost parenthesis. */
    void literal() {
        if (open > 0) {
            flags[open - 1] |= NON_EMPTY;
        }
    }

    /** Anything else: the innermost parenthesis is no literal list. */
    void other() {
        if (open > 0) {
            flags[open - 1] = (flags[open - 1] & ~ALL_LITERAL) | NON_EMPTY;
        }
    }

    /**
     * Closes the innermost parenthesis (whose {@code )} is already written). An IN list of
     * literals is replaced by {@code (...)}; a group of literals counts as a literal outside.
     */
    void close(StringBuilder out) {
        if (open == 0) {
            return;
        }
        open--;
        boolean literals = (flags[open] & (ALL_LITERAL | NON_EMPTY)) == (ALL_LITERAL | NON_EMPTY);
        if (literals && (flags[open] & IN_LIST) != 0) {
            out.setLength(starts[open]);
            out.append("(...)");
        }
        if (literals) {
            literal();
        } else {
            other();
        }
    }
}
