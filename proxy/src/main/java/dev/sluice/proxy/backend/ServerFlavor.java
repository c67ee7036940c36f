package dev.sluice.proxy.backend;

import java.util.Locale;

/**
 * Which server a backend is, where the two differ in what the proxy sends: MariaDB reports a
 * write's GTID as the session variable last_gtid and waits with MASTER_GTID_WAIT; MySQL reports
 * GTID sets through its own session tracker (session_track_gtids) and waits with
 * WAIT_FOR_EXECUTED_GTID_SET.
 */
public enum ServerFlavor {
    MARIADB,
    MYSQL;

    /**
     * From the greeting's server version: MariaDB's says so ("10.11.6-MariaDB-0+deb12u1"), and
     * before 11.x behind the "5.5.5-" prefix it adds so that old MySQL replicas accept it as a
     * source. Everything else (MySQL, Percona Server, ...) speaks MySQL's dialect.
     */
    public static ServerFlavor ofVersion(String serverVersion) {
        if (serverVersion == null) {
            return MYSQL;
        }
        return serverVersion.startsWith("5.5.5-") || serverVersion.toLowerCase(Locale.ROOT).contains("mariadb")
                ? MARIADB : MYSQL;
    }
}
