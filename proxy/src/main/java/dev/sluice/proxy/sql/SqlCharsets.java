package dev.sluice.proxy.sql;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * The Java charset a session's SQL text is in, from the MySQL character set name in
 * {@code character_set_client} or from the collation id a handshake response carries. UTF-8 when
 * the set is unknown or Java has no such charset.
 */
public final class SqlCharsets {

    private SqlCharsets() {
    }

    /** @param mysqlName a character set name as the server reports it, e.g. {@code latin1}; null when unknown */
    public static Charset forName(String mysqlName) {
        if (mysqlName == null || mysqlName.isEmpty()) {
            return StandardCharsets.UTF_8;
        }
        String name = mysqlName.toLowerCase(Locale.ROOT);
        String java = switch (name) {
            case "utf8", "utf8mb3", "utf8mb4" -> null;
            // MySQL's latin1 is cp1252 (with the five holes filled), not ISO-8859-1.
            case "latin1" -> "windows-1252";
            case "ascii" -> "US-ASCII";
            case "binary" -> "ISO-8859-1";
            case "latin2" -> "ISO-8859-2";
            case "latin5" -> "ISO-8859-9";
            case "latin7" -> "ISO-8859-13";
            case "greek" -> "ISO-8859-7";
            case "hebrew" -> "ISO-8859-8";
            case "cp1250", "cp1251", "cp1256", "cp1257" -> "windows-" + name.substring(2);
            case "koi8r" -> "KOI8-R";
            case "koi8u" -> "KOI8-U";
            case "cp850", "cp852", "cp866" -> "IBM" + name.substring(2);
            case "sjis" -> "Shift_JIS";
            case "cp932" -> "windows-31j";
            case "ujis" -> "EUC-JP";
            case "eucjpms" -> "x-eucJP-Open";
            case "euckr" -> "EUC-KR";
            case "gb2312" -> "GB2312";
            case "tis620" -> "TIS-620";
            case "macroman" -> "x-MacRoman";
            case "macce" -> "x-MacCentralEurope";
            default -> name;
        };
        if (java == null) {
            return StandardCharsets.UTF_8;
        }
        try {
            return Charset.forName(java);
        } catch (IllegalArgumentException e) {
            return StandardCharsets.UTF_8;
        }
    }

    /**
     * The character set of a collation id as a handshake response sends it (one byte), for the sets
     * clients use; what {@code character_set_client} is right after such a login. Ids from
     * MariaDB's {@code information_schema.COLLATIONS}.
     */
    public static Charset forCollation(int id) {
        return forName(collationCharset(id));
    }

    /** The MySQL character set name of a collation id, e.g. {@code latin1} for 8. */
    public static String collationCharset(int id) {
        return switch (id) {
            case 5, 8, 15, 31, 47, 48, 49, 94 -> "latin1";
            case 11, 65 -> "ascii";
            case 33, 83, 223 -> "utf8mb3";
            case 45, 46 -> "utf8mb4";
            case 63 -> "binary";
            case 2, 9, 21, 27, 77 -> "latin2";
            case 14, 23, 50, 51, 52 -> "cp1251";
            case 26, 34, 44, 66, 99 -> "cp1250";
            case 25, 70 -> "greek";
            case 16, 71 -> "hebrew";
            case 30, 78 -> "latin5";
            case 7, 74 -> "koi8r";
            case 22, 75 -> "koi8u";
            case 57, 67 -> "cp1256";
            case 29, 58, 59 -> "cp1257";
            case 13, 88 -> "sjis";
            case 95, 96 -> "cp932";
            case 12, 91 -> "ujis";
            case 19, 85 -> "euckr";
            case 28, 87 -> "gbk";
            case 24, 86 -> "gb2312";
            case 1, 84 -> "big5";
            default -> id >= 192 && id <= 215 ? "utf8mb3" : "utf8mb4";
        };
    }
}
