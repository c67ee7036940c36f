package dev.sluice.testkit;

/**
 * Accounts that every server of a {@link MariaDbCluster} has. All use mysql_native_password except
 * {@link #ED_USER}, which exists only where the server has the ed25519 plugin (see
 * {@link MariaDbServer#hasPlugin(String)}).
 */
public final class TestUsers {

    /** ALL PRIVILEGES on *.* except READ_ONLY ADMIN, so read_only on replicas stops its writes. */
    public static final String APP_USER = "app";
    public static final String APP_PASSWORD = "app";

    /** ALL PRIVILEGES on {@link #TEST_SCHEMA}.* only; the second identity for COM_CHANGE_USER tests. */
    public static final String APP2_USER = "app2";
    public static final String APP2_PASSWORD = "app2";

    /** IDENTIFIED VIA ed25519, with the same privileges as {@link #APP_USER}. */
    public static final String ED_USER = "ed";
    public static final String ED_PASSWORD = "ed";

    /** ALL PRIVILEGES WITH GRANT OPTION over TCP; used by {@link MariaDbServer#openAdmin()}. */
    public static final String ADMIN_USER = "sluice_admin";
    public static final String ADMIN_PASSWORD = "sluice_admin";

    /** REPLICATION SLAVE; the account replicas use to read the primary's binlog. */
    public static final String REPLICATION_USER = "sluice_repl";
    public static final String REPLICATION_PASSWORD = "sluice_repl";

    /** The schema created on the primary (and replicated) when {@link ClusterSpec#createTestSchema()}. */
    public static final String TEST_SCHEMA = "sluice_test";

    private TestUsers() {
    }
}
