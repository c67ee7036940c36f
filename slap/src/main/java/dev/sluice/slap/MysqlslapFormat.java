package dev.sluice.slap;

import org.HdrHistogram.Histogram;

import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/** mysqlslap's text block and CSV line, byte for byte, and slap's optional extra lines. */
final class MysqlslapFormat {

    private MysqlslapFormat() {
    }

    /** mysqlslap's print_conclusions; {@code extra} lines go before the closing blank line. */
    static String text(ConcurrencyResult result, String extra) {
        StringBuilder out = new StringBuilder("Benchmark\n");
        if (result.engine() != null) {
            out.append("\tRunning for engine ").append(result.engine()).append('\n');
        }
        out.append("\tAverage number of seconds to run all queries: ").append(seconds(result.avgMillis())).append(" seconds\n");
        out.append("\tMinimum number of seconds to run all queries: ").append(seconds(result.minMillis())).append(" seconds\n");
        out.append("\tMaximum number of seconds to run all queries: ").append(seconds(result.maxMillis())).append(" seconds\n");
        out.append("\tNumber of clients running queries: ").append(result.clients()).append('\n');
        out.append("\tAverage number of queries per client: ").append(result.queriesPerClient()).append('\n');
        out.append(extra);
        return out.append('\n').toString();
    }

    /** mysqlslap's print_conclusions_csv: engine,load_type,avg,min,max,clients,queries_per_client. */
    static String csv(ConcurrencyResult result) {
        return (result.engine() == null ? "" : result.engine()) + "," + result.loadType() + ","
                + seconds(result.avgMillis()) + "," + seconds(result.minMillis()) + "," + seconds(result.maxMillis())
                + "," + result.clients() + "," + result.queriesPerClient() + "\n";
    }

    /** {@code %ld.%03ld} of a millisecond count. */
    static String seconds(long millis) {
        return millis / 1000 + "." + String.format(Locale.ROOT, "%03d", millis % 1000);
    }

    /** The {@code --percentiles} lines, tab-indented like the block they join. */
    static String percentiles(ConcurrencyResult result) {
        Histogram latency = result.latencyMicros();
        if (latency.getTotalCount() == 0) {
            return "\tLatency per query (ms): no queries ran\n";
        }
        return String.format(Locale.ROOT,
                "\tLatency per query (ms): p50 %.3f, p95 %.3f, p99 %.3f, max %.3f%n\tQueries per second: %.1f%n",
                ms(latency.getValueAtPercentile(50)), ms(latency.getValueAtPercentile(95)),
                ms(latency.getValueAtPercentile(99)), ms(latency.getMaxValue()), result.queriesPerSecond())
                .replace(System.lineSeparator(), "\n");
    }

    /** The error and failed-connect report of one result, or "" when there were none. */
    static String problems(ConcurrencyResult result) {
        StringBuilder out = new StringBuilder();
        String where = "slap: " + (result.engine() == null ? "" : "engine " + result.engine() + ", ")
                + "concurrency " + result.clients() + ": ";
        if (result.errorCount() > 0) {
            out.append(where).append(result.errorCount()).append(" of ")
                    .append(result.totalQueries() + result.errorCount()).append(" queries failed: ")
                    .append(describe(result.errors())).append('\n');
        }
        if (result.failedConnectCount() > 0) {
            out.append(where).append(result.failedConnectCount()).append(" connects failed (after ")
                    .append(Connector.CONNECT_ATTEMPTS).append(" attempts each): ")
                    .append(describe(result.failedConnects())).append('\n');
        }
        return out.toString();
    }

    private static String describe(Map<String, ErrorTally.Entry> errors) {
        return errors.entrySet().stream()
                .map(e -> e.getKey() + " x" + e.getValue().count() + " (" + e.getValue().message() + ")")
                .collect(Collectors.joining(", "));
    }

    static double ms(long micros) {
        return micros / 1000.0;
    }
}
