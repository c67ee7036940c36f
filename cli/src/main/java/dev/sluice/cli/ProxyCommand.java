package dev.sluice.cli;

import dev.sluice.config.AdminConfig;
import dev.sluice.config.CaptureFlag;
import dev.sluice.config.ConfigException;
import dev.sluice.config.HealthConfig;
import dev.sluice.config.ConfigLoader;
import dev.sluice.config.HostPort;
import dev.sluice.config.QuickStart;
import dev.sluice.config.SluiceConfig;
import dev.sluice.proxy.ProxyServer;
import dev.sluice.proxy.memory.OldGenerationPacer;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code sluice proxy}: runs the proxy until SIGTERM or Ctrl-C. Without --config and --backend it
 * starts embedded MariaDB backends (a primary and two replicas with replication) first.
 */
@Command(name = "proxy", mixinStandardHelpOptions = true,
        description = "Run the proxy (on 0.0.0.0:4040 by default). Without --config or --backend, starts"
                + " embedded MariaDB backends (a primary and two replicas) and proxies to them.")
public final class ProxyCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Option(names = "--config", paramLabel = "FILE", description = "YAML configuration (see docs/configuration.md)")
    private Path configFile;

    @Option(names = "--backend", paramLabel = "HOST:PORT[,role=replica,weight=N,name=X,max_connections=N]",
            description = "A backend, repeatable (quick start without a file)")
    private List<String> backends = new ArrayList<>();

    @Option(names = "--user", paramLabel = "NAME:PASSWORD",
            description = "A user the proxy authenticates, repeatable; without users, logins pass through to the backend")
    private List<String> users = new ArrayList<>();

    @Option(names = "--listen", paramLabel = "HOST:PORT", description = "Where to listen (overrides the config)")
    private String listen;

    @Option(names = "--capture", paramLabel = "FILE[,format=slowlog,sql=digest,...]",
            description = "Capture every statement to FILE: JSON lines (for sluice digest and slap --replay), or format=slowlog"
                    + " for pt-query-digest; other KEY=VALUE as in the config's capture section")
    private String capture;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        SluiceConfig config;
        EmbeddedBackends embedded = null;
        try {
            if (configFile != null) {
                if (!backends.isEmpty() || !users.isEmpty()) {
                    err.println("sluice proxy: use either --config or --backend/--user, not both");
                    return 2;
                }
                config = ConfigLoader.load(configFile);
            } else if (!backends.isEmpty()) {
                config = QuickStart.config(backends, users);
            } else {
                if (!users.isEmpty()) {
                    err.println("sluice proxy: --user needs at least one --backend (or no options for embedded backends)");
                    return 2;
                }
                var missing = DemoPart.missing();
                if (missing.isPresent()) {
                    err.println("sluice proxy: no --config or --backend, and " + missing.get()
                            + "; give the proxy its backends with --backend HOST:PORT or --config FILE");
                    return 2;
                }
                out.println("No --config or --backend: starting embedded MariaDB backends (a primary and two replicas)...");
                out.flush();
                embedded = EmbeddedBackends.start(4000);
                config = embedded.config().withAdmin(AdminConfig.defaults())
                        .withHealth(HealthConfig.defaults());
            }
            if (listen != null) {
                config = config.withListen(HostPort.parse(listen));
            }
            if (capture != null) {
                config = config.withCapture(CaptureFlag.parse(capture, config.capture()));
            }
        } catch (ConfigException | IllegalArgumentException e) {
            err.println("sluice proxy: " + e.getMessage());
            closeQuietly(embedded);
            return 2;
        }
        OldGenerationPacer.install();
        ProxyServer proxy;
        try {
            proxy = ProxyServer.start(config, configFile);
        } catch (Exception e) {
            err.println("sluice proxy: cannot start: " + e.getMessage());
            closeQuietly(embedded);
            return 1;
        }
        printBanner(out, config, proxy, embedded);
        AotRecording.watch(proxy);
        CountDownLatch stopped = new CountDownLatch(1);
        EmbeddedBackends started = embedded;
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            proxy.close();
            closeQuietly(started);
            stopped.countDown();
        }, "sluice-shutdown"));
        stopped.await();
        return 0;
    }

    private static void printBanner(PrintWriter out, SluiceConfig config, ProxyServer proxy, EmbeddedBackends embedded) {
        if (embedded != null) {
            embedded.describe().forEach(line -> out.println("backend " + line));
        } else {
            config.backends().forEach(b -> out.println(String.format("backend %-9s %-8s %s", b.name(),
                    b.role().configName(), b.address())));
        }
        int port = proxy.port();
        out.println("Sluice is listening on " + proxy.address().getHostString() + ":" + port + " (routing "
                + config.routing().mode().configName() + ", balancer " + config.routing().balancer().configName() + ")");
        if (config.routing().mode() == dev.sluice.config.RoutingConfig.Mode.SPLIT) {
            out.println("Read/write split: reads outside transactions go to the replicas, everything else to the primary.");
        }
        if (config.passThroughAuth()) {
            out.println("Logins pass through to the backends; connect with: mariadb -h127.0.0.1 -P" + port + " -uUSER -pPASSWORD");
        } else if (embedded != null) {
            var user = config.users().get(0);
            out.println("Connect with: mariadb -h127.0.0.1 -P" + port + " -u" + user.name() + " -p" + user.password());
        } else {
            // A real password stays off the terminal: the client prompts for it.
            out.println("Connect with: mariadb -h127.0.0.1 -P" + port + " -u" + config.users().get(0).name() + " -p");
        }
        var admin = proxy.admin();
        if (admin != null && admin.sqlAddress() != null) {
            // The password stays off the terminal (and out of logs that keep it): the client prompts.
            out.println("Admin: mariadb -h" + admin.sqlAddress().getHostString() + " -P" + admin.sqlAddress().getPort()
                    + " -u" + config.admin().user() + " -p"
                    + (config.admin().weakPassword() ? "   (the default password: set admin.password)" : "")
                    + "   (SHOW BACKENDS; SELECT * FROM digests ORDER BY sum_time_ms DESC LIMIT 10)");
            String http = "http://" + admin.httpAddress().getHostString() + ":" + admin.httpAddress().getPort();
            out.println("Dashboard: " + http + "/" + (config.admin().httpToken().isEmpty() ? "" : "#token=<admin.http_token>"));
            out.println("Metrics: " + http + "/metrics"
                    + "   (JSON: /api/backends, /api/digests, /api/sessions; health: /health; sluice stats --watch)");
        }
        if (config.capture().enabled()) {
            out.println("Capture: " + proxy.runtime().capture().status().describe());
        }
        out.println("Stop with Ctrl-C (or SIGTERM): in-flight statements finish first.");
        out.flush();
    }

    private static void closeQuietly(EmbeddedBackends backends) {
        if (backends != null) {
            backends.close();
        }
    }
}
