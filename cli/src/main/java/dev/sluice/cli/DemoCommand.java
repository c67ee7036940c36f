package dev.sluice.cli;

import dev.sluice.config.HostPort;
import dev.sluice.config.SluiceConfig;
import dev.sluice.proxy.ProxyServer;
import dev.sluice.proxy.admin.Json;
import dev.sluice.slap.SlapCommand;
import dev.sluice.testkit.MariaDbCluster;
import dev.sluice.testkit.MariaDbServer;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code sluice demo}: embedded backends, the proxy in front of them, and slap running the classic
 * mysqlslap load-balancing workload through it; then per-backend figures, and everything it
 * started is stopped again.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = "Start embedded MariaDB backends and the proxy, run the classic mysqlslap workload through"
                + " it with slap, print the results and per-backend figures, then stop everything.")
public final class DemoCommand implements Callable<Integer> {

    /** The workload DBAs know from mysqlslap's load-balancing examples. */
    static final List<String> WORKLOAD = List.of("--concurrency=1,25,50,100", "--iterations=3",
            "--number-int-cols=2", "--number-char-cols=3", "--auto-generate-sql",
            "--auto-generate-sql-add-autoincrement", "--auto-generate-sql-load-type=mixed",
            "--number-of-queries=1000", "--percentiles");

    @Spec
    private CommandSpec spec;

    @Option(names = "--port", description = "Proxy port (default: ${DEFAULT-VALUE})")
    private int port = 4040;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        out.println("Starting embedded MariaDB backends (a primary and two replicas)...");
        out.flush();
        try (MariaDbCluster cluster = EmbeddedBackends.start(1000)) {
            SluiceConfig config = EmbeddedBackends.config(cluster).withListen(new HostPort("127.0.0.1", port));
            try (ProxyServer proxy = ProxyServer.start(config)) {
                for (MariaDbServer server : cluster.servers()) {
                    out.println("backend " + EmbeddedBackends.describe(server));
                }
                // The demo is the same on every machine: no option file (~/.my.cnf) changes its workload.
                List<String> args = new ArrayList<>(List.of("--no-defaults", "-h127.0.0.1", "-P" + proxy.port(), "-uapp", "-papp"));
                args.addAll(WORKLOAD);
                out.println("Sluice on 127.0.0.1:" + proxy.port() + "; running: slap " + String.join(" ", args));
                out.println();
                out.flush();
                CommandLine slap = new CommandLine(new SlapCommand()).setOut(out).setErr(err);
                int exit = slap.execute(args.toArray(String[]::new));
                out.println();
                printBackendTable(out, proxy);
                out.flush();
                return exit;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 1;
        } catch (RuntimeException e) {
            err.println("sluice demo: " + e.getMessage());
            return 1;
        }
    }

    /** The same table as {@code sluice stats}, from the same rows the HTTP admin serves. */
    static void printBackendTable(PrintWriter out, ProxyServer proxy) {
        StatsCommand.printTable(out, Json.rows(proxy.admin().tables().backends()));
    }
}
