package dev.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each kind of mistake, with the exact line, column and wording the operator sees. */
class ConfigErrorsTest {

    private static List<String> problems(String yaml) {
        ConfigException e = catchThrowableOfType(ConfigException.class,
                () -> ConfigLoader.parse(yaml, "sluice.yaml", Map.of("APP_PASSWORD", "pw")));
        assertThat(e).as("a ConfigException for:\n" + yaml).isNotNull();
        return e.problems().stream().map(ConfigProblem::toString).toList();
    }

    private static String problem(String yaml) {
        List<String> found = problems(yaml);
        assertThat(found).hasSize(1);
        return found.get(0);
    }

    @Test
    void notANumber() {
        String yaml = """
                backends:
                  - address: db1:3306
                  - address: db2:3306
                    role: replica
                    max_connections: 5
                    name: second
                    weight: heavy
                """;

        assertThat(problem(yaml)).isEqualTo(
                "sluice.yaml:7:13: backends[1].weight: \"heavy\" is not a number (expected: an integer >= 0)");
    }

    @Test
    void outOfRangeAndWholeNumbers() {
        String yaml = """
                backends:
                  - address: db1:3306
                    weight: -1
                    max_connections: 0
                limits:
                  max_client_connections: 1.5
                  max_packet_size: 2G
                event_loops: 99999999999
                """;

        assertThat(problems(yaml)).containsExactly(
                "sluice.yaml:3:13: backends[0].weight: -1 is out of range (expected: an integer >= 0)",
                "sluice.yaml:4:22: backends[0].max_connections: 0 is out of range (expected: an integer > 0)",
                "sluice.yaml:6:27: limits.max_client_connections: \"1.5\" is not a whole number (expected: an integer > 0)",
                "sluice.yaml:7:20: limits.max_packet_size: \"2G\" is out of range (expected: 1K to 1G bytes)",
                "sluice.yaml:8:14: event_loops: 99999999999 is out of range (expected: an integer >= 0)");
    }

    @Test
    void unknownKeyListsTheAllowedOnes() {
        String yaml = """
                listen: 0.0.0.0:4040
                backends: [{address: "db:3306"}]
                backend:
                  - address: db2:3306
                timeouts:
                  conect: 5s
                """;

        assertThat(problems(yaml)).containsExactly(
                "sluice.yaml:3:1: unknown key \"backend\" (expected one of: listen, users, backends, routing, limits,"
                        + " timeouts, tls, event_loops, admin, health, stats, capture, proxy_protocol_networks, mirror)",
                "sluice.yaml:6:3: timeouts: unknown key \"conect\" (expected one of: connect, handshake, client_idle,"
                        + " backend_queue, pool_idle, shutdown, backend_retry, query, primary_wait)");
    }

    @Test
    void missingRequiredKeys() {
        String yaml = """
                users:
                  - name: app
                backends:
                  - name: db
                    role: replica
                """;

        assertThat(problems(yaml)).containsExactly(
                "sluice.yaml:2:5: users[0]: missing key \"password\" (expected: a password (\"\" for an empty one) or password_hash)",
                "sluice.yaml:4:5: backends[0]: missing key \"address\" (expected: host:port)");
        assertThat(problem("listen: 0.0.0.0:4040\n")).isEqualTo(
                "sluice.yaml:1:1: missing key \"backends\" (expected: a list of backends, at least one)");
        assertThat(problem("listen: 0.0.0.0:4040\nbackends: []\n")).isEqualTo(
                "sluice.yaml:2:1: backends: no backends (expected: at least one backend)");
        assertThat(problem("backends:\n  - address:\n")).isEqualTo(
                "sluice.yaml:2:13: backends[0].address: no value (expected: host:port)");
    }

    @Test
    void emptyFileAndWrongShapes() {
        assertThat(problem("")).isEqualTo(
                "sluice.yaml:1:1: no settings (expected: a mapping with at least \"backends\")");
        assertThat(problem("# nothing but a comment\n")).isEqualTo(
                "sluice.yaml:1:1: no settings (expected: a mapping with at least \"backends\")");
        assertThat(problem("- a\n- b\n")).startsWith(
                "sluice.yaml:1:1: found a list (expected: a mapping with keys listen, users, backends,");
        assertThat(problem("backends:\n  address: db:3306\n")).isEqualTo(
                "sluice.yaml:2:3: backends: found a mapping (expected: a list of backends, each with an address)");
        assertThat(problem("backends:\n  - db:3306\n")).isEqualTo(
                "sluice.yaml:2:5: backends[0]: found \"db:3306\" (expected: a mapping with keys name, address, role,"
                        + " weight, max_connections, send_proxy_protocol)");
        assertThat(problem("backends:\n  - address: [db, 3306]\n")).isEqualTo(
                "sluice.yaml:2:14: backends[0].address: found a list (expected: host:port)");
        assertThat(problem("backends: [{address: \"db:1\"}]\ntls: true\n")).isEqualTo(
                "sluice.yaml:2:6: tls: found \"true\" (expected: a mapping with keys client, backend)");
        assertThat(problem("backends: [{address: \"db:1\"}]\n? [a, b]\n: c\n")).isEqualTo(
                "sluice.yaml:2:3: found a list as a key (expected one of: listen, users, backends, routing, limits,"
                        + " timeouts, tls, event_loops, admin, health, stats, capture, proxy_protocol_networks, mirror)");
    }

    @Test
    void duplicateNames() {
        String yaml = """
                users:
                  - name: app
                    password: a
                  - name: app
                    password: b
                backends:
                  - name: primary
                    address: db1:3306
                  - address: db2:3306
                    name: primary
                  - address: db3:3306
                  - address: db3:3306
                """;

        assertThat(problems(yaml)).containsExactly(
                "sluice.yaml:4:11: users[1].name: duplicate user name \"app\" (first at line 2)",
                "sluice.yaml:10:11: backends[1].name: duplicate backend name \"primary\" (first at line 7)",
                "sluice.yaml:12:5: backends[3]: duplicate backend name \"db3:3306\" (first at line 11; the name comes"
                        + " from the address: set name to tell them apart)");
    }

    @Test
    void duplicateKeys() {
        String yaml = """
                listen: 0.0.0.0:4040
                backends:
                  - address: db1:3306
                    weight: 1
                    weight: 2
                listen: 0.0.0.0:5050
                """;

        assertThat(problems(yaml)).containsExactly(
                "sluice.yaml:5:5: backends[0]: duplicate key \"weight\" (first at line 4)",
                "sluice.yaml:6:1: duplicate key \"listen\" (first at line 1)");
    }

    @Test
    void badHostPort() {
        String yaml = """
                listen: localhost
                backends:
                  - address: db:0
                  - address: ::1:3306
                  - address: "db:65536"
                """;

        assertThat(problems(yaml)).containsExactly(
                "sluice.yaml:1:9: listen: \"localhost\" has no port (expected: host:port, e.g. 127.0.0.1:3306 or [::1]:3306)",
                "sluice.yaml:3:14: backends[0].address: \"db:0\": port 0 is not a backend port (expected: 1 to 65535)",
                "sluice.yaml:4:14: backends[1].address: \"::1:3306\": an IPv6 address needs brackets (expected: [::1]:3306)",
                "sluice.yaml:5:14: backends[2].address: \"db:65536\": port 65536 is out of range (expected: 0 to 65535)");
    }

    @Test
    void unknownEnumValuesListTheAllowedOnes() {
        String yaml = """
                backends:
                  - address: db1:3306
                    role: master
                routing:
                  mode: Split
                  balancer: least-latency
                """;

        assertThat(problems(yaml)).containsExactly(
                "sluice.yaml:3:11: backends[0].role: unknown value \"master\" (expected one of: primary, replica, auto)",
                "sluice.yaml:5:9: routing.mode: unknown value \"Split\" (expected one of: session, split)",
                "sluice.yaml:6:13: routing.balancer: unknown value \"least-latency\" (expected one of: round_robin,"
                        + " weighted, least_connections, least_latency, random)");
    }

    @Test
    void badBooleansAndDurations() {
        String yaml = """
                backends: [{address: "db:1"}]
                limits:
                  allow_local_infile: yes
                timeouts:
                  connect: 10 sec
                  handshake: 0s
                  backend_retry: 1m
                  client_idle: 400d
                """;

        assertThat(problems(yaml)).containsExactly(
                "sluice.yaml:3:23: limits.allow_local_infile: \"yes\" is not a boolean (expected: true or false)",
                "sluice.yaml:5:12: timeouts.connect: \"10 sec\" is not a duration (expected: " + Durations.EXPECTED + ")",
                "sluice.yaml:6:14: timeouts.handshake: \"0s\" is out of range (expected: 1ms to 365d)",
                "sluice.yaml:7:18: timeouts.backend_retry: \"1m\" is out of range (expected: 1ms to 30s)",
                "sluice.yaml:8:16: timeouts.client_idle: \"400d\" is out of range (expected: 1ms to 365d)");
    }

    @Test
    void crossFieldRulesAreReportedWhereTheyApply() {
        String yaml = """
                backends:
                  - address: db1:3306
                    weight: 0
                  - address: db2:3306
                    role: replica
                    weight: 0
                routing:
                  mode: split
                  balancer: weighted
                tls:
                  client:
                    cert: /x/cert.pem
                  backend:
                    verify: true
                """;

        assertThat(problems(yaml)).containsExactly(
                "sluice.yaml:1:1: backends: every weight is 0 (expected: at least one backend with weight > 0,"
                        + " as balancers skip weight 0)",
                "sluice.yaml:8:9: routing.mode: split needs a backend with role primary (or auto) and weight > 0 to take"
                        + " writes (found: every primary has weight 0)",
                "sluice.yaml:8:9: routing.mode: split needs users: the proxy logs into the backends itself to move"
                        + " statements between connections (found: no users, which means pass-through auth)",
                "sluice.yaml:12:5: tls.client: cert is set without key (expected: both cert and key, or neither for a"
                        + " self-signed certificate)",
                "sluice.yaml:14:5: tls.backend: verify: true needs enabled: true");
        assertThat(problem("users: [{name: a, password: b}]\nbackends: [{address: \"db:1\", role: replica}]\n"
                + "routing: {mode: split}\n")).isEqualTo(
                "sluice.yaml:3:17: routing.mode: split needs a backend with role primary (or auto) and weight > 0 to take"
                        + " writes (found: only replicas)");
        assertThat(problem("backends: [{address: \"db:1\"}]\nrouting: {mode: split}\n")).isEqualTo(
                "sluice.yaml:2:17: routing.mode: split needs users: the proxy logs into the backends itself to move"
                        + " statements between connections (found: no users, which means pass-through auth)");
    }

    @Test
    void certificateFilesAreCheckedWhenTlsIsOn(@TempDir Path dir) {
        String yaml = """
                backends: [{address: "db:1"}]
                tls:
                  client:
                    enabled: true
                    cert: %1$s/missing-cert.pem
                    key: %1$s
                  backend:
                    enabled: true
                    verify: true
                    ca: %1$s/missing-ca.pem
                """.formatted(dir);

        assertThat(problems(yaml)).containsExactly(
                "sluice.yaml:5:11: tls.client.cert: " + dir + "/missing-cert.pem: no such file (expected: a readable PEM file)",
                "sluice.yaml:6:10: tls.client.key: " + dir + ": is a directory (expected: a readable PEM file)",
                "sluice.yaml:10:9: tls.backend.ca: " + dir + "/missing-ca.pem: no such file (expected: a readable PEM file)");
    }

    @Test
    void yamlSyntaxErrorsCarryTheirLine() {
        assertThat(problem("listen: 0.0.0.0:4040\nbackends:\n  - address: a: b\n")).isEqualTo(
                "sluice.yaml:3:15: invalid YAML: mapping values are not allowed here");
        assertThat(problem("backends: [{address: db:1}\n")).isEqualTo(
                "sluice.yaml:2:1: invalid YAML: expected ',' or ']', but got <stream end> (while parsing a flow"
                        + " sequence at line 1)");
        assertThat(problem("backends:\n\t- address: db:1\n")).startsWith(
                "sluice.yaml:2:1: invalid YAML: found character '\\t(TAB)' that cannot start any token.");
        assertThat(problem("backends: *nothing\n")).isEqualTo(
                "sluice.yaml:1:11: invalid YAML: found undefined alias nothing");
        assertThat(problem("a: 1\n---\nb: 2\n")).isEqualTo(
                "sluice.yaml:2:1: invalid YAML: but found another document (expected a single document in the stream"
                        + " at line 1)");
    }

    @Test
    void allProblemsComeInOneExceptionInFileOrder() {
        String yaml = """
                timeouts:
                  connect: soon
                listen: nowhere
                backends:
                  - address: db1:3306
                    wieght: 2
                """;

        ConfigException e = catchThrowableOfType(ConfigException.class,
                () -> ConfigLoader.parse(yaml, "sluice.yaml", Map.of()));

        assertThat(e.problems()).extracting(ConfigProblem::line).containsExactly(2, 3, 6);
        assertThat(e.problems()).extracting(ConfigProblem::path).containsExactly("timeouts.connect", "listen", "backends[0]");
        assertThat(e.getMessage()).startsWith("3 configuration problems:\n  sluice.yaml:2:12: timeouts.connect: ");
        assertThat(e.getMessage().lines()).hasSize(4);
    }

    @Test
    void selfReferencingAnchorsEndInAnErrorNotALoop() {
        assertThat(problem("backends: &b [*b]\n")).isEqualTo(
                "sluice.yaml:1:11: backends[0]: found a list (expected: a mapping with keys name, address, role,"
                        + " weight, max_connections, send_proxy_protocol)");
        assertThat(problem("backends: [{address: \"db:1\"}]\ntls: &t {client: *t}\n")).isEqualTo(
                "sluice.yaml:2:10: tls.client: unknown key \"client\" (expected one of: enabled, cert, key, required)");
    }

    @Test
    void hostileYamlIsRefusedNotExpanded() {
        StringBuilder bomb = new StringBuilder("a: &a [x, x, x, x, x, x, x, x, x]\n");
        for (char c = 'b'; c <= 'k'; c++) {
            char prev = (char) (c - 1);
            bomb.append(c).append(": &").append(c).append(" [").append(("*" + prev + ", ").repeat(8))
                    .append('*').append(prev).append("]\n");
        }
        bomb.append("backends: [{address: \"db:1\"}]\n");

        assertThat(problem(bomb.toString())).contains("invalid YAML").contains("aliases");
    }
}
