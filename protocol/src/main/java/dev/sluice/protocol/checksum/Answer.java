package dev.sluice.protocol.checksum;

/**
 * A server's answer to one statement as {@link AnswerChecksum} reduced it: what two servers'
 * answers are compared on. Error messages are kept to show, never compared: their wording
 * changes between versions where their meaning does not.
 *
 * @param errorCode    the ERR's code, 0 when none
 * @param error        the ERR's message, null when none
 * @param results      result sets and OKs (more than one for a multi-statement or a CALL)
 * @param rows         rows over all results
 * @param affected     affected rows over all OKs
 * @param warnings     the warning counts of the OKs and EOFs
 * @param columnsKnown false when the server left the column definitions out (MariaDB's metadata cache)
 * @param columns      the results' column names and types as one hash; 0 when not known
 * @param ordered      the rows' checksum that depends on their order ({@link RowChecksum#ordered})
 * @param unordered    the one that does not
 * @param uncomparable why the answer cannot be compared (e.g. LOAD DATA LOCAL INFILE); null when it can
 */
public record Answer(int errorCode, String error, int results, long rows, long affected, int warnings,
                     boolean columnsKnown, long columns, long ordered, long unordered, String uncomparable) {

    /**
     * Where {@code other} differs from this answer, in words naming the two sides, or null when
     * they agree. Rows count in order only when {@code orderMatters} (the statement says ORDER BY).
     */
    public String differenceFrom(Answer other, boolean orderMatters, String thisSide, String otherSide) {
        if (errorCode != other.errorCode) {
            return "error: " + thisSide + " " + describeError() + "; " + otherSide + " " + other.describeError();
        }
        if (errorCode != 0) {
            return null;
        }
        if (results != other.results) {
            return both("results", thisSide, results, otherSide, other.results);
        }
        if (columnsKnown && other.columnsKnown && columns != other.columns) {
            return "columns: other names or types";
        }
        if (rows != other.rows) {
            return both("rows", thisSide, rows, otherSide, other.rows);
        }
        if (affected != other.affected) {
            return both("affected rows", thisSide, affected, otherSide, other.affected);
        }
        if (unordered != other.unordered) {
            return "the same number of rows (" + rows + "), other values";
        }
        if (orderMatters && ordered != other.ordered) {
            return "the same " + rows + " rows in another order (the statement has ORDER BY)";
        }
        if (warnings != other.warnings) {
            return both("warnings", thisSide, warnings, otherSide, other.warnings);
        }
        return null;
    }

    private String describeError() {
        return errorCode == 0 ? "no error" : errorCode + " (" + error + ")";
    }

    private static String both(String what, String thisSide, long a, String otherSide, long b) {
        return what + ": " + thisSide + " " + a + "; " + otherSide + " " + b;
    }
}
