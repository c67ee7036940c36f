package dev.sluice.proxy.admin;

/** An admin statement that cannot run: sent to the client as ERR with this code and SQL state. */
final class AdminSqlException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** ER_PARSE_ERROR. */
    static final int PARSE_ERROR = 1064;
    /** ER_NO_SUCH_TABLE. */
    static final int NO_SUCH_TABLE = 1146;
    /** ER_BAD_FIELD_ERROR. */
    static final int BAD_FIELD = 1054;
    /** ER_WRONG_VALUE_FOR_VAR. */
    static final int WRONG_VALUE = 1231;

    private final int code;
    private final String sqlState;

    AdminSqlException(int code, String sqlState, String message) {
        super(message, null, false, false);
        this.code = code;
        this.sqlState = sqlState;
    }

    static AdminSqlException syntax(String detail) {
        return new AdminSqlException(PARSE_ERROR, "42000", "You have an error in your admin SQL syntax: " + detail
                + " (try HELP)");
    }

    int code() {
        return code;
    }

    String sqlState() {
        return sqlState;
    }
}
