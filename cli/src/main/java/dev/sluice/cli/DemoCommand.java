package dev.sluice.cli;

import dev.sluice.config.HostPort;
import dev.sluice.config.LimitsConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.proxy.ProxyServer;
import dev.sluice.proxy.admin.Json;
import dev.sluice.proxy.memory.OldGenerationPacer;
import dev.sluice.slap.SlapCommand;
import java.io.PrintWriter;
import java.io.StringWriter;
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
    static final List<String> WORKLOAD = List.of("--concurrency=1,25,50,100", "--number-int-cols=2",
            "--number-char-cols=3", "--auto-generate-sql", "--auto-generate-sql-add-autoincrement",
            "--auto-generate-sql-load-type=mixed", "--number-of-queries=1000", "--percentiles");

    /**
     * At most 100 clients run, so the proxy's defaults for ten thousand (and its warning about the
     * open-file limit they need) do not apply.
     */
    private static final LimitsConfig DEMO_LIMITS = new LimitsConfig(1000, 1000, false, LimitsConfig.MAX_PACKET_SIZE);

    @Spec
    private CommandSpec spec;

    @Option(names = "--port", description = "Proxy port (default: ${DEFAULT-VALUE}; 0 takes a free one)")
    private int port = 4040;

    @Option(names = "--iterations", description = "How many times slap runs the workload at each concurrency"
            + " (default: ${DEFAULT-VALUE})")
    private int iterations = 3;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (iterations < 1) {
            err.println("sluice demo: --iterations: " + iterations + " (expected: 1 or more)");
            return 2;
        }
        var missing = DemoPart.missing();
        if (missing.isPresent()) {
            err.println("sluice demo: " + missing.get());
            return 2;
        }
        out.println("Starting embedded MariaDB backends (a primary and two replicas)...");
        out.flush();
        int exit;
        String backendTable;
        OldGenerationPacer.install();
        try (EmbeddedBackends backends = EmbeddedBackends.start(1000)) {
            SluiceConfig config = backends.config().withListen(new HostPort("127.0.0.1", port))
                    .withLimits(DEMO_LIMITS);
            try (ProxyServer proxy = ProxyServer.start(config)) {
                backends.describe().forEach(line -> out.println("backend " + line));
                // The demo is the same on every machine: no option file (~/.my.cnf) changes its workload.
                List<String> args = new ArrayList<>(List.of("--no-defaults", "-h127.0.0.1", "-P" + proxy.port(), "-uapp", "-papp"));
                args.addAll(WORKLOAD);
                args.add("--iterations=" + iterations);
                out.println("Sluice on 127.0.0.1:" + proxy.port() + "; running: slap " + String.join(" ", args));
                out.println();
                out.flush();
                CommandLine slap = new CommandLine(new SlapCommand()).setOut(out).setErr(err);
                exit = slap.execute(args.toArray(String[]::new));
                backendTable = backendTable(proxy);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 1;
        } catch (RuntimeException e) {
            err.println("sluice demo: " + e.getMessage());
            return 1;
        }
        // Printed once everything has stopped, so that the results are the last thing on the screen.
        out.println();
        out.print(backendTable);
        out.flush();
        return exit;
    }

    /** The same table as {@code sluice stats}, from the same rows the HTTP admin serves. */
    private static String backendTable(ProxyServer proxy) {
        StringWriter table = new StringWriter();
        try (PrintWriter out = new PrintWriter(table)) {
            StatsCommand.printTable(out, Json.rows(proxy.admin().tables().backends()));
        }
        return table.toString();
    }
}
