package dev.sluice.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.LimitsConfig;
import dev.sluice.config.RoutingConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.config.TimeoutsConfig;
import dev.sluice.testkit.MariaDbCluster;
import dev.sluice.testkit.MariaDbClusterExtension;
import dev.sluice.testkit.TestUsers;
import java.io.IOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Malformed input before and after the handshake: the offending connection gets an ERR and is
 * closed, a session opened beforehand keeps working, and (with leak detection at PARANOID) no
 * buffer leaks.
 */
@ExtendWith(MariaDbClusterExtension.class)
class BadInputIT {

    private static final int MAX_PACKET = 1 << 20;
    private static final Duration HANDSHAKE_TIMEOUT = Duration.ofSeconds(2);
    private static ProxyServer proxy;
    private static MariaDbCluster cluster;

    @BeforeAll
    static void start(MariaDbCluster shared) {
        cluster = shared;
        proxy = ProxyFixture.start(config());
    }

    private static SluiceConfig config() {
        SluiceConfig config = ProxyFixture.config(List.of(ProxyFixture.backend(cluster.primary())));
        LimitsConfig limits = new LimitsConfig(100, 100, false, MAX_PACKET);
        TimeoutsConfig defaults = TimeoutsConfig.defaults();
        TimeoutsConfig timeouts = new TimeoutsConfig(defaults.connect(), HANDSHAKE_TIMEOUT, defaults.clientIdle(),
                defaults.backendQueue(), defaults.poolIdle(), defaults.shutdown(), defaults.backendRetry());
        return config.withLimits(limits).withTimeouts(timeouts);
    }

    @AfterAll
    static void stop() {
        proxy.close();
    }

    /** Runs the bad input while a healthy session is open, then checks that session. */
    private static void withBystander(ThrowingRunnable bad) throws Exception {
        try (Connection bystander = ProxyFixture.connect(proxy, null, "")) {
            bad.run();
            try (Statement s = bystander.createStatement(); ResultSet rs = s.executeQuery("SELECT 42")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getInt(1)).isEqualTo(42);
            }
        }
    }

    interface ThrowingRunnable {
        void run() throws Exception;
    }

    @Test
    void garbageInsteadOfAHandshakeResponse() throws Exception {
        withBystander(() -> {
            try (RawClient client = new RawClient(proxy.port())) {
                client.greeting();
                client.sendRaw("GET / HTTP/1.1\r\nHost: sluice\r\n\r\n".getBytes());
                RawClient.RawPacket reply = client.read();
                assertThat(reply.header()).isEqualTo(0xFF);
                assertThat(reply.errorCode()).isEqualTo(1043);
                assertThat(reply.errorMessage()).startsWith("Bad handshake");
                assertThat(client.closedByPeer()).isTrue();
            }
        });
    }

    @Test
    void truncatedHandshakeResponse() throws Exception {
        withBystander(() -> {
            try (RawClient client = new RawClient(proxy.port())) {
                client.greeting();
                // 40 declared bytes of which the capability flags and a user name without NUL
                byte[] payload = new byte[40];
                payload[0] = (byte) 0x85;
                payload[1] = (byte) 0xa2;
                payload[2] = 0x0a;
                for (int i = 32; i < 40; i++) {
                    payload[i] = 'u';
                }
                client.send(1, payload);
                RawClient.RawPacket reply = client.read();
                assertThat(reply.errorCode()).isEqualTo(1043);
                assertThat(reply.errorMessage()).contains("HandshakeResponse41");
                assertThat(client.closedByPeer()).isTrue();
            }
        });
    }

    @Test
    void aGibibyteDeclaredInsideTheHandshakeResponse() throws Exception {
        withBystander(() -> {
            try (RawClient client = new RawClient(proxy.port())) {
                client.greeting();
                // PLUGIN_AUTH_LENENC_CLIENT_DATA with an auth response "length" of 1 GiB (0xfe + 8 bytes)
                byte[] payload = new byte[32 + 4 + 9 + 4];
                long caps = RawClient.CAPABILITIES;
                for (int i = 0; i < 4; i++) {
                    payload[i] = (byte) (caps >>> (8 * i));
                }
                payload[8] = 45;
                payload[32] = 'a';
                payload[33] = 'p';
                payload[34] = 'p';
                payload[35] = 0;
                payload[36] = (byte) 0xfe;
                payload[36 + 4] = 0x40;
                client.send(1, payload);
                RawClient.RawPacket reply = client.read();
                assertThat(reply.errorCode()).isEqualTo(1043);
                assertThat(client.closedByPeer()).isTrue();
            }
        });
    }

    /**
     * A client that has not logged in may not make the proxy buffer a command-sized packet: one
     * that declares 128 KiB (max_packet_size is 1 MiB here) is refused at its header, with the
     * proxy's own login or relayed to the backend. Connection attributes of several KiB still log in.
     */
    @Test
    void aPacketLargerThanALoginNeedsIsRefusedBeforeLogin() throws Exception {
        ProxyServer passThrough = ProxyFixture.start(config().withUsers(List.of()));
        try {
            for (ProxyServer target : List.of(proxy, passThrough)) {
                try (RawClient client = new RawClient(target.port())) {
                    client.greeting();
                    client.sendRaw(new byte[] {0, 0, 2, 1, 'j', 'u', 'n', 'k'});
                    RawClient.RawPacket reply = client.read();
                    assertThat(reply.errorCode()).isEqualTo(1043);
                    assertThat(reply.errorMessage()).startsWith("Bad handshake").contains("before it has logged in");
                    assertThat(client.closedByPeer()).isTrue();
                }
                String attributes = "connectionAttributes=big:" + "x".repeat(8_000);
                try (Connection c = DriverManager.getConnection(ProxyFixture.url(target, null, attributes),
                        TestUsers.APP_USER, TestUsers.APP_PASSWORD);
                     Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT REPEAT('y', 100000)")) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getString(1)).hasSize(100_000);
                    // After login a command may be as long as max_packet_size again.
                    assertThat(s.executeQuery("SELECT LENGTH('" + "z".repeat(200_000) + "')").next()).isTrue();
                }
            }
        } finally {
            passThrough.close();
        }
    }

    @Test
    void garbageCommandAfterLoginIsAnsweredByTheServer() throws Exception {
        withBystander(() -> {
            try (RawClient client = new RawClient(proxy.port())) {
                assertThat(client.login(TestUsers.APP_USER, TestUsers.APP_PASSWORD).header()).isZero();
                client.send(0, new byte[] {(byte) 0x42, 1, 2, 3});
                RawClient.RawPacket reply = client.read();
                assertThat(reply.header()).isEqualTo(0xFF);
                assertThat(reply.errorCode()).as("ER_UNKNOWN_COM_ERROR from MariaDB").isEqualTo(1047);
                assertThat(client.query("SELECT 1").header()).isEqualTo(1);
            }
        });
    }

    @Test
    void aCommandLargerThanMaxPacketSizeEndsTheSession() throws Exception {
        withBystander(() -> {
            try (RawClient client = new RawClient(proxy.port())) {
                assertThat(client.login(TestUsers.APP_USER, TestUsers.APP_PASSWORD).header()).isZero();
                // A COM_QUERY split at 16 MiB whose pieces add up past max_packet_size (1 MiB here):
                // the proxy must refuse it without buffering it.
                byte[] piece = new byte[0xFF_FFFF];
                piece[0] = 0x03;
                client.send(0, piece);
                RawClient.RawPacket reply = client.read();
                assertThat(reply.header()).isEqualTo(0xFF);
                assertThat(reply.errorCode()).isEqualTo(1153);
                assertThat(client.closedByPeer()).isTrue();
            }
        });
    }

    @Test
    void emptyAndTruncatedCommands() throws Exception {
        withBystander(() -> {
            try (RawClient client = new RawClient(proxy.port())) {
                assertThat(client.login(TestUsers.APP_USER, TestUsers.APP_PASSWORD).header()).isZero();
                client.send(0, new byte[0]);
                RawClient.RawPacket reply = client.read();
                assertThat(reply.errorCode()).isEqualTo(1047);
                assertThat(client.closedByPeer()).isTrue();
            }
            try (RawClient client = new RawClient(proxy.port())) {
                assertThat(client.login(TestUsers.APP_USER, TestUsers.APP_PASSWORD).header()).isZero();
                // A header promising 100 bytes, then the client vanishes after 10.
                client.sendRaw(new byte[] {100, 0, 0, 0, 3, 'S', 'E', 'L', 'E', 'C', 'T', ' ', '1', ' '});
            }
        });
    }

    /** Refused as the server refuses an unknown command: an ERR, and the session goes on, in both modes. */
    @Test
    void replicationCommandsAreRefused() throws Exception {
        ProxyServer split = ProxyFixture.start(ProxyFixture.config(List.of(ProxyFixture.backend(cluster.primary())))
                .withRouting(new RoutingConfig(RoutingConfig.Mode.SPLIT, RoutingConfig.Balancer.ROUND_ROBIN)));
        try {
            for (ProxyServer target : List.of(proxy, split)) {
                try (RawClient client = new RawClient(target.port())) {
                    assertThat(client.login(TestUsers.APP_USER, TestUsers.APP_PASSWORD).header()).isZero();
                    client.send(0, new byte[] {0x12, 4, 0, 0, 0, 0, 0, 1, 0, 0, 0});
                    RawClient.RawPacket reply = client.read();
                    assertThat(reply.errorCode()).isEqualTo(1047);
                    assertThat(reply.errorMessage()).contains("COM_BINLOG_DUMP");
                    assertThat(client.query("SELECT 1").header()).as("a result set's column count").isEqualTo(1);
                }
            }
        } finally {
            split.close();
        }
    }

    @Test
    void silentClientIsDroppedAfterTheHandshakeTimeout() throws IOException {
        // This connection never answers the greeting.
        try (RawClient client = new RawClient(proxy.port())) {
            client.greeting();
            long start = System.nanoTime();
            RawClient.RawPacket reply = client.read();
            assertThat(reply.errorCode()).isEqualTo(1043);
            assertThat(reply.errorMessage()).contains("not completed within");
            assertThat((System.nanoTime() - start) / 1_000_000).isBetween(1_500L, 6_000L);
        }
    }
}
