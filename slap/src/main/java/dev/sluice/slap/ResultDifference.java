package dev.sluice.slap;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Where two servers' answers to one statement part, in words, or null when they agree: the error,
 * the number of results, each result's columns, rows (in order only when the statement says
 * ORDER BY) or affected rows, then the warnings' codes. Messages are shown, never compared: their
 * wording changes between versions where their meaning does not.
 *
 * @param text      what differs first, with both sides' values
 * @param orderOnly the rows are the same, in another order (under ORDER BY)
 */
record ResultDifference(String text, boolean orderOnly) {

    static ResultDifference of(StatementResult a, StatementResult b, boolean ordered) {
        if (a.notRun != null || b.notRun != null || !java.util.Objects.equals(a.errorKey, b.errorKey)) {
            return both("", a.describe(), b.describe());
        }
        if (a.errorKey != null) {
            return null;
        }
        if (a.parts.size() != b.parts.size()) {
            return both("results: ", a.describe(), b.describe());
        }
        for (int i = 0; i < a.parts.size(); i++) {
            ResultDifference part = part(a.parts.get(i), b.parts.get(i), ordered,
                    a.parts.size() > 1 ? "result " + (i + 1) + ": " : "");
            if (part != null) {
                return part;
            }
        }
        if (!codes(a.warnings).equals(codes(b.warnings))) {
            return both("warnings: ", a.warnings.isEmpty() ? "none" : a.warnings.toString(),
                    b.warnings.isEmpty() ? "none" : b.warnings.toString());
        }
        return null;
    }

    private static ResultDifference part(StatementResult.Part a, StatementResult.Part b, boolean ordered, String where) {
        if ((a.columns() == null) != (b.columns() == null)) {
            return both(where, a.columns() == null ? a.affected() + " affected" : "rows of (" + a.columns() + ")",
                    b.columns() == null ? b.affected() + " affected" : "rows of (" + b.columns() + ")");
        }
        if (a.columns() == null) {
            return a.affected() == b.affected() ? null : both(where + "affected rows: ", Long.toString(a.affected()),
                    Long.toString(b.affected()));
        }
        if (!a.columns().equals(b.columns())) {
            return both(where + "columns: ", "(" + a.columns() + ")", "(" + b.columns() + ")");
        }
        boolean sameSet = a.rows() == b.rows() && a.unordered() == b.unordered();
        if (sameSet && (!ordered || a.ordered() == b.ordered())) {
            return null;
        }
        if (sameSet) {
            int at = firstDifference(a.sample(), b.sample());
            return new ResultDifference(where + "the same " + rows(a.rows()) + " in another order (the statement has"
                    + " ORDER BY)" + (at < 0 ? "" : "; row " + (at + 1) + ": " + values(a, b, at, at)), true);
        }
        String counts = a.rows() == b.rows() ? rows(a.rows()) + " on both, other values" : "rows: A " + a.rows() + "; B "
                + b.rows();
        return new ResultDifference(where + counts + example(a, b, ordered), false);
    }

    /** The first rows that tell the two apart, when the kept rows can. */
    private static String example(StatementResult.Part a, StatementResult.Part b, boolean ordered) {
        if (ordered || (a.rows() == 1 && b.rows() == 1)) {
            int at = firstDifference(a.sample(), b.sample());
            return at < 0 ? "" : "; row " + (at + 1) + ": " + values(a, b, at, at);
        }
        if (a.rows() > StatementResult.SAMPLE_ROWS || b.rows() > StatementResult.SAMPLE_ROWS) {
            return "; first rows: A " + a.row(0) + "; B " + b.row(0);
        }
        List<List<String>> onlyA = new ArrayList<>(a.sample());
        List<List<String>> onlyB = new ArrayList<>(b.sample());
        for (List<String> r : a.sample()) {
            if (onlyB.remove(r)) {
                onlyA.remove(r);
            }
        }
        if (onlyA.size() == 1 && onlyB.size() == 1) {
            return "; " + values(a, b, a.sample().indexOf(onlyA.get(0)), b.sample().indexOf(onlyB.get(0)));
        }
        return "; only on A: " + (onlyA.isEmpty() ? "none" : a.row(a.sample().indexOf(onlyA.get(0)))) + "; only on B: "
                + (onlyB.isEmpty() ? "none" : b.row(b.sample().indexOf(onlyB.get(0))));
    }

    /**
     * Row {@code atA} of A against row {@code atB} of B: the columns that differ, by name, when the
     * rows have the same columns; else both rows whole.
     */
    private static String values(StatementResult.Part a, StatementResult.Part b, int atA, int atB) {
        if (atA >= a.sample().size() || atB >= b.sample().size()) {
            return "A " + a.row(atA) + "; B " + b.row(atB);
        }
        List<String> rowA = a.sample().get(atA);
        List<String> rowB = b.sample().get(atB);
        if (rowA.size() != rowB.size() || rowA.size() < 3) {
            return "A " + a.row(atA) + "; B " + b.row(atB);
        }
        List<String> columns = new ArrayList<>();
        for (int i = 0; i < rowA.size() && columns.size() < 3; i++) {
            if (!rowA.get(i).equals(rowB.get(i))) {
                columns.add(a.labels().get(i) + " A " + rowA.get(i) + ", B " + rowB.get(i));
            }
        }
        return String.join("; ", columns);
    }

    private static int firstDifference(List<List<String>> a, List<List<String>> b) {
        for (int i = 0; i < Math.max(a.size(), b.size()); i++) {
            if (i >= a.size() || i >= b.size() || !a.get(i).equals(b.get(i))) {
                return i;
            }
        }
        return -1;
    }

    private static String rows(long n) {
        return n + (n == 1 ? " row" : " rows");
    }

    private static List<String> codes(List<String> warnings) {
        List<String> codes = new ArrayList<>();
        warnings.forEach(w -> codes.add(w.substring(0, Math.max(0, w.indexOf(' ')))));
        Collections.sort(codes);
        return codes;
    }

    private static ResultDifference both(String what, String a, String b) {
        return new ResultDifference(what + "A " + a + "; B " + b, false);
    }
}
