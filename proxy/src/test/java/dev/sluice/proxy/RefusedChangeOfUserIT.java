package dev.sluice.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.RoutingConfig;
import dev.sluice.testkit.MariaDbCluster;
import dev.sluice.testkit.MariaDbClusterExtension;
import dev.sluice.testkit.TestUsers;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A COM_CHANGE_USER with a wrong password or an unknown user: MariaDB refuses it a second late
 * and keeps the connection, reset, as the old account (sql_parse.cc restores the security context
 * when acl_authenticate fails); split mode checks the account itself and once closed the
 * connection instead. Each scenario runs straight to the primary and through a split proxy.
 */
@ExtendWith(MariaDbClusterExtension.class)
@Timeout(120)
class RefusedChangeOfUserIT {

    private static MariaDbCluster cluster;
    private static ProxyServer proxy;

    @BeforeAll
    static void start(MariaDbCluster shared) {
        cluster = shared;
        proxy = ProxyFixture.start(ProxyFixture.config(ProxyFixture.backends(cluster))
                .withRouting(new RoutingConfig(RoutingConfig.Mode.SPLIT, RoutingConfig.Balancer.ROUND_ROBIN)));
    }

    @AfterAll
    static void stop() {
        proxy.close();
    }

    /** What a session answered, straight to the primary and through the proxy. */
    private interface Scenario {
        List<Object> run(RawClient client) throws IOException;
    }

    private static void sameBothWays(Scenario scenario) throws IOException {
        List<List<Object>> outcomes = new ArrayList<>();
        for (int port : new int[] {cluster.primary().port(), proxy.port()}) {
            try (RawClient client = new RawClient(port)) {
                RawClient.RawPacket login = client.login(TestUsers.APP_USER, TestUsers.APP_PASSWORD, "sluice_test");
                assertThat(login.header()).as("login").isZero();
                outcomes.add(scenario.run(client));
            }
        }
        assertThat(outcomes.get(1)).as("through the proxy").isEqualTo(outcomes.get(0));
    }

    private static String refusal(RawClient client, String user, String password) throws IOException {
        long start = System.nanoTime();
        RawClient.RawPacket answer = client.changeUser(user, password);
        assertThat(answer.header()).as("the change's answer").isEqualTo(0xFF);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).as("answered after the server's pause")
                .isGreaterThanOrEqualTo(Duration.ofMillis(900));
        return answer.errorCode() + " " + answer.errorMessage();
    }

    @Test
    void aWrongPasswordLeavesTheSessionAsItsOldAccountReset() throws IOException {
        sameBothWays(client -> {
            List<Object> out = new ArrayList<>();
            assertThat(client.query("SET @before = 1, SESSION group_concat_max_len = 4321").header()).isZero();
            out.add(refusal(client, TestUsers.APP2_USER, "wrong"));
            out.add(client.firstRow("SELECT CURRENT_USER(), @before, @@group_concat_max_len = @@global.group_concat_max_len,"
                    + " DATABASE()"));
            RawClient.RawPacket changed = client.changeUser(TestUsers.APP2_USER, TestUsers.APP2_PASSWORD);
            out.add(changed.header() == 0 ? "changed" : changed.errorCode() + " " + changed.errorMessage());
            out.add(client.firstRow("SELECT CURRENT_USER()"));
            return out;
        });
    }

    @Test
    void anUnknownUserIsRefusedAndTheFourthChangeIsAnUnknownCommand() throws IOException {
        sameBothWays(client -> {
            List<Object> out = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                out.add(refusal(client, "nobody_here", "x"));
            }
            RawClient.RawPacket fourth = client.changeUser(TestUsers.APP2_USER, TestUsers.APP2_PASSWORD);
            out.add(fourth.header() == 0 ? "changed" : fourth.errorCode() + " " + fourth.errorMessage());
            out.add(client.firstRow("SELECT CURRENT_USER()"));
            return out;
        });
    }
}
