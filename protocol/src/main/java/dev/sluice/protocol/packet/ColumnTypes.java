package dev.sluice.protocol.packet;

/**
 * Column and parameter types, enum_field_types
 * (https://dev.mysql.com/doc/dev/mysql-server/latest/field__types_8h.html), named without the
 * MYSQL_TYPE_ prefix.
 */
public final class ColumnTypes {

    public static final int DECIMAL = 0;
    public static final int TINY = 1;
    public static final int SHORT = 2;
    public static final int LONG = 3;
    public static final int FLOAT = 4;
    public static final int DOUBLE = 5;
    public static final int NULL = 6;
    public static final int TIMESTAMP = 7;
    public static final int LONGLONG = 8;
    public static final int INT24 = 9;
    public static final int DATE = 10;
    public static final int TIME = 11;
    public static final int DATETIME = 12;
    public static final int YEAR = 13;
    public static final int NEWDATE = 14;
    public static final int VARCHAR = 15;
    public static final int BIT = 16;
    public static final int TIMESTAMP2 = 17;
    public static final int DATETIME2 = 18;
    public static final int TIME2 = 19;
    public static final int VECTOR = 242;
    public static final int JSON = 245;
    public static final int NEWDECIMAL = 246;
    public static final int ENUM = 247;
    public static final int SET = 248;
    public static final int TINY_BLOB = 249;
    public static final int MEDIUM_BLOB = 250;
    public static final int LONG_BLOB = 251;
    public static final int BLOB = 252;
    public static final int VAR_STRING = 253;
    public static final int STRING = 254;
    public static final int GEOMETRY = 255;

    private ColumnTypes() {
    }

    /** The docs' name without prefix, e.g. "VAR_STRING", or "TYPE_42" when unknown. */
    public static String name(int type) {
        return switch (type) {
            case DECIMAL -> "DECIMAL";
            case TINY -> "TINY";
            case SHORT -> "SHORT";
            case LONG -> "LONG";
            case FLOAT -> "FLOAT";
            case DOUBLE -> "DOUBLE";
            case NULL -> "NULL";
            case TIMESTAMP -> "TIMESTAMP";
            case LONGLONG -> "LONGLONG";
            case INT24 -> "INT24";
            case DATE -> "DATE";
            case TIME -> "TIME";
            case DATETIME -> "DATETIME";
            case YEAR -> "YEAR";
            case NEWDATE -> "NEWDATE";
            case VARCHAR -> "VARCHAR";
            case BIT -> "BIT";
            case TIMESTAMP2 -> "TIMESTAMP2";
            case DATETIME2 -> "DATETIME2";
            case TIME2 -> "TIME2";
            case VECTOR -> "VECTOR";
            case JSON -> "JSON";
            case NEWDECIMAL -> "NEWDECIMAL";
            case ENUM -> "ENUM";
            case SET -> "SET";
            case TINY_BLOB -> "TINY_BLOB";
            case MEDIUM_BLOB -> "MEDIUM_BLOB";
            case LONG_BLOB -> "LONG_BLOB";
            case BLOB -> "BLOB";
            case VAR_STRING -> "VAR_STRING";
            case STRING -> "STRING";
            case GEOMETRY -> "GEOMETRY";
            default -> "TYPE_" + type;
        };
    }
}
