package dev.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Reads docs/configuration.md itself, so the reference page cannot drift from the code. */
class ConfigDocsTest {

    private static final Path DOC = Path.of("..", "docs", "configuration.md");
    private static final Pattern ROW = Pattern.compile("^\\| `([a-z_]+)` \\| [^|]+ \\| ([^|]+) \\|");
    private static final Pattern FIRST_CODE = Pattern.compile("`([^`]+)`");
    private static final String ONE_BACKEND = "backends: [{address: \"127.0.0.1:3306\"}]\n";

    private static String doc;
    /** Section heading (top, users[], backends[], routing, tls.client, ...) to its rows: key to default column. */
    private static Map<String, Map<String, String>> tables;

    @BeforeAll
    static void readDoc() throws IOException {
        doc = Files.readString(DOC);
        tables = new LinkedHashMap<>();
        String section = null;
        for (String line : doc.lines().toList()) {
            if (line.startsWith("### ")) {
                section = line.substring(4).replace("`", "").replace("Top level", "top");
                tables.put(section, new LinkedHashMap<>());
            } else if (line.startsWith("## ")) {
                section = null;
            }
            Matcher row = ROW.matcher(line);
            if (section != null && row.find()) {
                tables.get(section).put(row.group(1), row.group(2).strip());
            }
        }
    }

    @Test
    void theFullExampleParsesToTheDefaultsItClaims() {
        SluiceConfig example = ConfigLoader.parse(yamlBlocks().get(0), "configuration.md",
                Map.of("APP_PASSWORD", "from-env"));

        SluiceConfig defaults = SluiceConfig.defaults();
        assertThat(example.listen()).isEqualTo(defaults.listen());
        assertThat(example.proxyProtocolNetworks()).containsExactly(IpNetwork.parse("10.0.8.0/24"));
        assertThat(example.users()).containsExactly(new UserConfig("app", "from-env"), new UserConfig("report", "changeme"),
                UserConfig.withPasswordHash("batch", "*2470C0C06DEE42FD1618BB99005ADCA2EC9D1E19"));
        assertThat(example.backends()).containsExactly(
                new BackendConfig("primary", HostPort.parse("127.0.0.1:3306"), BackendConfig.Role.PRIMARY, 1, 200),
                new BackendConfig("replica1", HostPort.parse("127.0.0.1:3307"), BackendConfig.Role.REPLICA, 2, 200));
        assertThat(example.routing()).isEqualTo(new RoutingConfig(RoutingConfig.Mode.SPLIT, defaults.routing().balancer()));
        assertThat(example.limits()).isEqualTo(defaults.limits());
        assertThat(example.timeouts()).isEqualTo(defaults.timeouts());
        assertThat(example.tls()).isEqualTo(new TlsConfig(
                new ClientTlsConfig(false, Optional.of(Path.of("/etc/sluice/server-cert.pem")),
                        Optional.of(Path.of("/etc/sluice/server-key.pem")), false),
                new BackendTlsConfig(false, false, Optional.of(Path.of("/etc/sluice/ca.pem")))));
        assertThat(example.eventLoops()).isEqualTo(defaults.eventLoops());
        assertThat(example.admin()).isEqualTo(AdminConfig.defaults());
        HealthConfig health = HealthConfig.defaults();
        assertThat(example.health()).isEqualTo(new HealthConfig(health.enabled(), health.interval(), health.timeout(),
                health.failAfter(), health.recoverAfter(), health.maxReplicationLag(), Optional.of("monitor"),
                Optional.of("monitor")));
        assertThat(example.stats()).isEqualTo(StatsConfig.defaults());
        assertThat(example.capture()).isEqualTo(
                CaptureConfig.jsonl(Path.of("/var/log/sluice/capture.jsonl")).withEnabled(false));
    }

    @Test
    void theSmallestExampleParses() {
        assertThat(ConfigLoader.parse(yamlBlocks().get(1), "configuration.md", Map.of()))
                .isEqualTo(ConfigLoader.parse(ONE_BACKEND, "one.yaml", Map.of()));
    }

    @Test
    void everyKeyHasARowAndEveryRowIsAKey() {
        assertThat(tables.get("top")).containsOnlyKeys(ConfigReader.TOP_KEYS);
        assertThat(tables.get("users[]")).containsOnlyKeys(ConfigReader.USER_KEYS);
        assertThat(tables.get("backends[]")).containsOnlyKeys(ConfigReader.BACKEND_KEYS);
        assertThat(tables.get("routing")).containsOnlyKeys(ConfigReader.ROUTING_KEYS);
        assertThat(tables.get("limits")).containsOnlyKeys(ConfigReader.LIMITS_KEYS);
        assertThat(tables.get("timeouts")).containsOnlyKeys(ConfigReader.TIMEOUTS_KEYS);
        assertThat(tables.get("tls.client")).containsOnlyKeys(TlsReader.CLIENT_KEYS);
        assertThat(tables.get("tls.backend")).containsOnlyKeys(TlsReader.BACKEND_KEYS);
        assertThat(tables.get("admin")).containsOnlyKeys(OperationsReader.ADMIN_KEYS);
        assertThat(tables.get("health")).containsOnlyKeys(OperationsReader.HEALTH_KEYS);
        assertThat(tables.get("stats")).containsOnlyKeys(OperationsReader.STATS_KEYS);
        assertThat(tables.get("capture")).containsOnlyKeys(CaptureReader.KEYS);
        assertThat(tables.get("mirror")).containsOnlyKeys(MirrorReader.KEYS);
    }

    /** Writing each documented default explicitly must give the same config as leaving it out. */
    @Test
    void everyDocumentedDefaultIsTheCodesDefault() {
        SluiceConfig implicit = ConfigLoader.parse(ONE_BACKEND, "one.yaml", Map.of());
        int checked = 0;
        for (Map.Entry<String, Map<String, String>> table : tables.entrySet()) {
            for (Map.Entry<String, String> row : table.getValue().entrySet()) {
                Matcher value = FIRST_CODE.matcher(row.getValue());
                if (!value.find()) {
                    continue;
                }
                String yaml = explicitYaml(table.getKey(), row.getKey(), value.group(1));
                assertThat(ConfigLoader.parse(yaml, "default.yaml", Map.of())).as(yaml).isEqualTo(implicit);
                checked++;
            }
        }
        assertThat(checked).as("rows with a default checked").isGreaterThanOrEqualTo(36);
    }

    @Test
    void errorExamplesHaveTheDocumentedShape() {
        String errors = doc.substring(doc.indexOf("## Errors"));
        List<String> examples = codeBlocks(errors, "```\n").get(1).lines().toList();

        assertThat(examples).hasSizeGreaterThanOrEqualTo(8)
                .allMatch(line -> line.matches("sluice\\.yaml:[1-9][0-9]*:[1-9][0-9]*: .+"));
    }

    private static String explicitYaml(String section, String key, String value) {
        String quoted = '"' + value + '"';
        return switch (section) {
            case "top" -> key + ": " + quoted + "\n" + ONE_BACKEND;
            case "backends[]" -> "backends:\n  - address: \"127.0.0.1:3306\"\n    " + key + ": " + quoted + "\n";
            default -> {
                StringBuilder yaml = new StringBuilder(ONE_BACKEND);
                String indent = "";
                for (String part : section.split("\\.")) {
                    yaml.append(indent).append(part).append(":\n");
                    indent += "  ";
                }
                yield yaml.append(indent).append(key).append(": ").append(quoted).append('\n').toString();
            }
        };
    }

    private static List<String> yamlBlocks() {
        return codeBlocks(doc, "```yaml\n");
    }

    private static List<String> codeBlocks(String text, String opening) {
        List<String> blocks = new ArrayList<>();
        int start = text.indexOf(opening);
        while (start >= 0) {
            int end = text.indexOf("```", start + opening.length());
            blocks.add(text.substring(start + opening.length(), end));
            start = text.indexOf(opening, end + 3);
        }
        return blocks;
    }
}
