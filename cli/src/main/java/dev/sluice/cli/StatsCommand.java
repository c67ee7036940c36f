package dev.sluice.cli;

import dev.sluice.slap.JsonText;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code sluice stats [--watch]}: the per-backend figures of a running proxy, from its HTTP admin
 * API ({@code /api/backends}), as a table; with --watch, redrawn every interval until Ctrl-C.
 */
@Command(name = "stats", mixinStandardHelpOptions = true,
        description = "Show a running proxy's per-backend figures (from its HTTP admin port, /api/backends).")
public final class StatsCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Option(names = "--admin", paramLabel = "HOST:PORT", description = "The proxy's HTTP admin address (default: ${DEFAULT-VALUE})")
    private String admin = "127.0.0.1:4080";

    @Option(names = "--token", paramLabel = "TOKEN", description = "The admin's http_token, if it has one (default: $SLUICE_ADMIN_TOKEN)")
    private String token = System.getenv("SLUICE_ADMIN_TOKEN");

    @Option(names = "--watch", description = "Redraw every --interval until Ctrl-C")
    private boolean watch;

    @Option(names = "--interval", paramLabel = "SECONDS", description = "Seconds between redraws with --watch (default: ${DEFAULT-VALUE})")
    private double interval = 2;

    @Option(names = "--count", paramLabel = "N", description = "With --watch, stop after N tables (default: until Ctrl-C)")
    private long count = Long.MAX_VALUE;

    @Override
    public Integer call() throws InterruptedException {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (interval <= 0) {
            err.println("sluice stats: --interval " + interval + " (expected: more than 0 seconds)");
            return 2;
        }
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();
        URI uri = URI.create("http://" + admin + "/api/backends");
        long shown = 0;
        do {
            List<?> backends;
            try {
                HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(5));
                if (token != null && !token.isEmpty()) {
                    request.header("Authorization", "Bearer " + token);
                }
                HttpResponse<String> response = client.send(request.build(), HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() != 200) {
                    err.println("sluice stats: " + uri + " answered " + response.statusCode() + ": " + response.body().strip());
                    return 1;
                }
                backends = (List<?>) JsonText.parse(response.body());
            } catch (IOException | IllegalArgumentException | ClassCastException e) {
                err.println("sluice stats: cannot read " + uri + ": " + e.getMessage()
                        + " (is the proxy running with its HTTP admin port there? see --admin)");
                return 1;
            }
            if (watch) {
                out.print("\u001b[H\u001b[2J");
                out.println("sluice stats " + admin + "   " + LocalTime.now().format(DateTimeFormatter.ofPattern("HH:mm:ss"))
                        + "   (Ctrl-C to stop)");
            }
            printTable(out, backends);
            out.flush();
            shown++;
            if (watch && shown < count) {
                Thread.sleep((long) (interval * 1000));
            }
        } while (watch && shown < count);
        return 0;
    }

    /** The per-backend table as {@code sluice demo} and {@code sluice stats} print it, from /api/backends rows. */
    static void printTable(PrintWriter out, List<?> backends) {
        out.println(String.format(Locale.ROOT, "%-10s %-8s %-8s %6s %10s %7s %6s %6s %7s %9s %9s %9s %9s %9s %7s",
                "backend", "role", "state", "weight", "queries", "errors", "conns", "in_use", "waiting",
                "p50 ms", "p95 ms", "p99 ms", "max ms", "p95 10s", "lag s"));
        for (Object item : backends) {
            Map<?, ?> row = (Map<?, ?>) item;
            out.println(String.format(Locale.ROOT, "%-10s %-8s %-8s %6s %10s %7s %6s %6s %7s %9s %9s %9s %9s %9s %7s",
                    row.get("name"), row.get("role"), row.get("state"), text(row.get("weight")), text(row.get("queries")),
                    text(row.get("errors")), text(row.get("conn_open")), text(row.get("conn_in_use")),
                    text(row.get("conn_waiting")), millis(row.get("p50_ms")), millis(row.get("p95_ms")),
                    millis(row.get("p99_ms")), millis(row.get("max_ms")), millis(row.get("p95_10s_ms")),
                    text(row.get("replication_lag_s"))));
        }
    }

    private static String text(Object value) {
        return value == null ? "-" : String.valueOf(value);
    }

    private static String millis(Object value) {
        return value instanceof Number n ? String.format(Locale.ROOT, "%.3f", n.doubleValue()) : "-";
    }
}
