package dev.sluice.proxy.admin;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.AdminConfig;
import dev.sluice.config.HostPort;
import dev.sluice.proxy.ProxyFixture;
import dev.sluice.proxy.ProxyServer;
import dev.sluice.testkit.MariaDbCluster;
import dev.sluice.testkit.MariaDbClusterExtension;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The admin ports are bounded and, with a token, closed to whoever lacks it: they share the
 * process's open files with the proxy's port, and /api/sessions shows users and addresses.
 */
@ExtendWith(MariaDbClusterExtension.class)
class AdminLimitsIT {

    private static final String TOKEN = "t0ken-for-the-test";
    private static ProxyServer proxy;

    @BeforeAll
    static void start(MariaDbCluster cluster) {
        proxy = ProxyFixture.start(ProxyFixture.config(List.of(ProxyFixture.backend(cluster.primary())))
                .withAdmin(new AdminConfig(true, new HostPort("127.0.0.1", 0), new HostPort("127.0.0.1", 0), "admin",
                        AdminPortsIT.PASSWORD, TOKEN)));
    }

    @AfterAll
    static void stop() {
        if (proxy != null) {
            proxy.close();
        }
    }

    @Test
    void theHttpTokenIsAskedForEverywhereButHealth() throws Exception {
        InetSocketAddress http = proxy.admin().httpAddress();
        assertThat(AdminClients.get(http, "/api/sessions").statusCode()).isEqualTo(401);
        assertThat(AdminClients.get(http, "/metrics", "Bearer wrong").statusCode()).isEqualTo(401);
        var answered = AdminClients.get(http, "/api/sessions", "Bearer " + TOKEN);
        assertThat(answered.statusCode()).isEqualTo(200);
        assertThat(answered.body()).startsWith("[");
        assertThat(AdminClients.get(http, "/health").statusCode()).as("load balancers ask without a token").isIn(200, 503);
    }

    @Test
    void theSqlPortRefusesTheConnectionOverItsCap() throws Exception {
        InetSocketAddress sql = proxy.admin().sqlAddress();
        List<Socket> held = new ArrayList<>();
        try {
            for (int i = 0; i < AdminConnectionLimit.MAX; i++) {
                Socket s = open(sql);
                held.add(s);
                assertThat(firstPayloadByte(s)).as("greeting %d", i).isEqualTo(10);
            }
            try (Socket over = open(sql)) {
                byte[] packet = over.getInputStream().readNBytes(7);
                assertThat(packet[4] & 0xFF).as("an ERR").isEqualTo(0xFF);
                assertThat((packet[5] & 0xFF) | (packet[6] & 0xFF) << 8).isEqualTo(1040);
            }
            held.remove(0).close();
            // The count drops when the server sees the close, a moment after ours.
            Awaitility.await("a place freed up").atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(50))
                    .until(() -> greeted(sql));
        } finally {
            for (Socket s : held) {
                s.close();
            }
        }
    }

    @Test
    void theHttpPortRefusesTheConnectionOverItsCap() throws Exception {
        InetSocketAddress http = proxy.admin().httpAddress();
        List<Socket> held = new ArrayList<>();
        try {
            for (int i = 0; i < AdminConnectionLimit.MAX; i++) {
                held.add(open(http));
            }
            try (Socket over = open(http)) {
                String answer = new String(over.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
                assertThat(answer).startsWith("HTTP/1.1 503").contains("too many admin connections");
            }
        } finally {
            for (Socket s : held) {
                s.close();
            }
        }
        assertThat(AdminClients.get(http, "/health").statusCode()).as("served again once they left").isIn(200, 503);
    }

    private static Socket open(InetSocketAddress address) throws IOException {
        Socket s = new Socket("127.0.0.1", address.getPort());
        s.setSoTimeout(5_000);
        return s;
    }

    private static int firstPayloadByte(Socket s) throws IOException {
        InputStream in = s.getInputStream();
        byte[] header = in.readNBytes(5);
        return header.length == 5 ? header[4] & 0xFF : -1;
    }

    /** Whether a new connection to {@code sql} is greeted. */
    private static boolean greeted(InetSocketAddress sql) throws IOException {
        try (Socket s = open(sql)) {
            return firstPayloadByte(s) == 10;
        }
    }
}
