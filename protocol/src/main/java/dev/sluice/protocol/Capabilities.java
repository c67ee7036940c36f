package dev.sluice.protocol;

import java.util.ArrayList;
import java.util.List;

/**
 * Capability flags (https://dev.mysql.com/doc/dev/mysql-server/latest/group__group__cs__capabilities__flags.html).
 * The low 32 bits are MySQL's; MariaDB's extended capabilities live in the upper 32 bits of the
 * same {@code long} (they travel in the last 4 filler bytes of the greeting and of the handshake
 * response, and only when the {@link #CLIENT_MYSQL} bit is clear).
 */
public final class Capabilities {

    /**
     * CLIENT_LONG_PASSWORD for MySQL. MariaDB reuses bit 0 as CLIENT_MYSQL: a MariaDB server
     * clears it in its greeting to say "extended capabilities follow", and a client that leaves it
     * clear in its response sends its own extended capabilities in the filler.
     */
    public static final long CLIENT_MYSQL = 1L;
    public static final long CLIENT_LONG_PASSWORD = 1L;
    public static final long CLIENT_FOUND_ROWS = 1L << 1;
    public static final long CLIENT_LONG_FLAG = 1L << 2;
    public static final long CLIENT_CONNECT_WITH_DB = 1L << 3;
    public static final long CLIENT_NO_SCHEMA = 1L << 4;
    public static final long CLIENT_COMPRESS = 1L << 5;
    public static final long CLIENT_ODBC = 1L << 6;
    public static final long CLIENT_LOCAL_FILES = 1L << 7;
    public static final long CLIENT_IGNORE_SPACE = 1L << 8;
    public static final long CLIENT_PROTOCOL_41 = 1L << 9;
    public static final long CLIENT_INTERACTIVE = 1L << 10;
    public static final long CLIENT_SSL = 1L << 11;
    public static final long CLIENT_IGNORE_SIGPIPE = 1L << 12;
    public static final long CLIENT_TRANSACTIONS = 1L << 13;
    public static final long CLIENT_RESERVED = 1L << 14;
    public static final long CLIENT_SECURE_CONNECTION = 1L << 15;
    public static final long CLIENT_MULTI_STATEMENTS = 1L << 16;
    public static final long CLIENT_MULTI_RESULTS = 1L << 17;
    public static final long CLIENT_PS_MULTI_RESULTS = 1L << 18;
    public static final long CLIENT_PLUGIN_AUTH = 1L << 19;
    public static final long CLIENT_CONNECT_ATTRS = 1L << 20;
    public static final long CLIENT_PLUGIN_AUTH_LENENC_CLIENT_DATA = 1L << 21;
    public static final long CLIENT_CAN_HANDLE_EXPIRED_PASSWORDS = 1L << 22;
    public static final long CLIENT_SESSION_TRACK = 1L << 23;
    public static final long CLIENT_DEPRECATE_EOF = 1L << 24;
    public static final long CLIENT_OPTIONAL_RESULTSET_METADATA = 1L << 25;
    public static final long CLIENT_ZSTD_COMPRESSION_ALGORITHM = 1L << 26;
    public static final long CLIENT_QUERY_ATTRIBUTES = 1L << 27;
    public static final long CLIENT_MULTI_FACTOR_AUTHENTICATION = 1L << 28;
    public static final long CLIENT_CAPABILITY_EXTENSION = 1L << 29;
    public static final long CLIENT_SSL_VERIFY_SERVER_CERT = 1L << 30;
    public static final long CLIENT_REMEMBER_OPTIONS = 1L << 31;

    public static final long MARIADB_CLIENT_PROGRESS = 1L << 32;
    public static final long MARIADB_CLIENT_COM_MULTI = 1L << 33;
    public static final long MARIADB_CLIENT_STMT_BULK_OPERATIONS = 1L << 34;
    public static final long MARIADB_CLIENT_EXTENDED_METADATA = 1L << 35;
    public static final long MARIADB_CLIENT_CACHE_METADATA = 1L << 36;
    public static final long MARIADB_CLIENT_BULK_UNIT_RESULTS = 1L << 37;

    private static final String[] LOW_NAMES = {
        "CLIENT_LONG_PASSWORD", "CLIENT_FOUND_ROWS", "CLIENT_LONG_FLAG", "CLIENT_CONNECT_WITH_DB",
        "CLIENT_NO_SCHEMA", "CLIENT_COMPRESS", "CLIENT_ODBC", "CLIENT_LOCAL_FILES",
        "CLIENT_IGNORE_SPACE", "CLIENT_PROTOCOL_41", "CLIENT_INTERACTIVE", "CLIENT_SSL",
        "CLIENT_IGNORE_SIGPIPE", "CLIENT_TRANSACTIONS", "CLIENT_RESERVED", "CLIENT_SECURE_CONNECTION",
        "CLIENT_MULTI_STATEMENTS", "CLIENT_MULTI_RESULTS", "CLIENT_PS_MULTI_RESULTS", "CLIENT_PLUGIN_AUTH",
        "CLIENT_CONNECT_ATTRS", "CLIENT_PLUGIN_AUTH_LENENC_CLIENT_DATA",
        "CLIENT_CAN_HANDLE_EXPIRED_PASSWORDS", "CLIENT_SESSION_TRACK", "CLIENT_DEPRECATE_EOF",
        "CLIENT_OPTIONAL_RESULTSET_METADATA", "CLIENT_ZSTD_COMPRESSION_ALGORITHM",
        "CLIENT_QUERY_ATTRIBUTES", "CLIENT_MULTI_FACTOR_AUTHENTICATION", "CLIENT_CAPABILITY_EXTENSION",
        "CLIENT_SSL_VERIFY_SERVER_CERT", "CLIENT_REMEMBER_OPTIONS",
    };

    private static final String[] MARIADB_NAMES = {
        "MARIADB_CLIENT_PROGRESS", "MARIADB_CLIENT_COM_MULTI", "MARIADB_CLIENT_STMT_BULK_OPERATIONS",
        "MARIADB_CLIENT_EXTENDED_METADATA", "MARIADB_CLIENT_CACHE_METADATA",
        "MARIADB_CLIENT_BULK_UNIT_RESULTS",
    };

    private Capabilities() {
    }

    public static boolean has(long capabilities, long flag) {
        return (capabilities & flag) != 0;
    }

    /** The low 32 bits, as sent in the 4-byte capability fields. */
    public static long low(long capabilities) {
        return capabilities & 0xFFFF_FFFFL;
    }

    /** MariaDB's extended capabilities, as sent in the filler. */
    public static long mariaDbExtended(long capabilities) {
        return capabilities >>> 32;
    }

    public static long combine(long low, long mariaDbExtended) {
        return (low & 0xFFFF_FFFFL) | (mariaDbExtended << 32);
    }

    /**
     * A MariaDB peer speaks extended capabilities when it clears CLIENT_MYSQL; a MySQL server always
     * sets bit 0 (CLIENT_LONG_PASSWORD).
     */
    public static boolean speaksMariaDbExtensions(long capabilities) {
        return !has(capabilities, CLIENT_MYSQL);
    }

    /** Flag names for logs and error messages, e.g. "CLIENT_SSL|CLIENT_PROTOCOL_41". */
    public static String describe(long capabilities) {
        List<String> names = new ArrayList<>();
        for (int bit = 0; bit < 64; bit++) {
            if ((capabilities & (1L << bit)) == 0) {
                continue;
            }
            if (bit < 32) {
                names.add(LOW_NAMES[bit]);
            } else if (bit - 32 < MARIADB_NAMES.length) {
                names.add(MARIADB_NAMES[bit - 32]);
            } else {
                names.add("MARIADB_BIT_" + (bit - 32));
            }
        }
        return String.join("|", names);
    }
}
