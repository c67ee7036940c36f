package dev.sluice.slap;

import java.util.ArrayList;
import java.util.List;

/**
 * Everything a slap run needs, validated. Build one with {@link #builder()}; every default is
 * mysqlslap's, and the options past {@code csv} are slap's own additions.
 *
 * @param concurrency     clients per run, one run per value in order
 * @param numberOfQueries total queries per run, split as {@code total / clients} (0: the list once)
 * @param csv             null for text output, {@code "-"} for CSV on stdout, else a file to append to
 * @param timeSeconds     run each iteration this long instead of by query count (0: off)
 * @param rate            open-loop queries per second across all clients (0: closed loop)
 * @param htmlFile        --report-html: a page with charts of the run, or null
 * @param sweepMax        with {@code > 0}, double the clients from 1 up to this until throughput stops growing
 * @param seed            seed for generated values; null for a fresh one per run
 * @param clientThreads   platform or virtual threads for the clients
 */
public record SlapOptions(
        ConnectionOptions connection,
        WorkloadOptions workload,
        List<Integer> concurrency,
        int iterations,
        long numberOfQueries,
        int commit,
        int detach,
        boolean onlyPrint,
        String preSystem,
        String postSystem,
        boolean noDrop,
        boolean silent,
        int verbose,
        String csv,
        boolean failFast,
        boolean percentiles,
        long timeSeconds,
        long reportIntervalSeconds,
        double rate,
        String jsonFile,
        String htmlFile,
        int sweepMax,
        Long seed,
        ClientThreads clientThreads) {

    public SlapOptions {
        concurrency = List.copyOf(concurrency);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Whether the schema survives the run (mysqlslap's opt_preserve). */
    boolean preserveSchema() {
        return noDrop || !workload.createsSchema();
    }

    /**
     * The per-client query limit at {@code clients}, as mysqlslap's concurrency_loop computes it.
     * A timed run keeps only a limit given on purpose: the length of a --query list is not one.
     */
    public long clientLimit(int clients, Workload built) {
        if (workload.executeNumber() > 0) {
            return workload.executeNumber();
        }
        if (numberOfQueries > 0) {
            return numberOfQueries / clients;
        }
        return timeSeconds > 0 ? 0 : built.queryCount();
    }

    /** The client counts to run: the --concurrency list, or the sweep's doubling plan. */
    List<Integer> plannedConcurrency() {
        if (sweepMax <= 0) {
            return concurrency;
        }
        List<Integer> plan = new ArrayList<>();
        for (int c = 1; c <= sweepMax; c *= 2) {
            plan.add(c);
        }
        return plan;
    }

    int maxClients() {
        return plannedConcurrency().stream().mapToInt(Integer::intValue).max().orElse(1);
    }

    /** Parses mysqlslap's comma list of client counts. */
    static List<Integer> parseConcurrency(String value) {
        List<Integer> counts = new ArrayList<>();
        for (String part : value.split(",", -1)) {
            try {
                int clients = Integer.parseInt(part.strip());
                if (clients < 1) {
                    throw new NumberFormatException("below 1");
                }
                counts.add(clients);
            } catch (NumberFormatException e) {
                throw new SlapException("Invalid value specified for the option 'concurrency': '" + value
                        + "' at '" + part + "' (expected: a comma list of client counts >= 1; for a"
                        + " growing concurrency use --sweep)", 1);
            }
        }
        return counts;
    }
    /** Collects options with mysqlslap's defaults; {@link #build()} checks them as mysqlslap does. */
    public static final class Builder {
        private String host = "localhost";
        private int port = 3306;
        private String user = System.getProperty("user.name", "");
        private String password;
        private String socket;
        private String protocol;
        private boolean compress;
        private SslOptions ssl = SslOptions.DISABLED;
        private String initCommand;
        private String characterSet;
        private int queryTimeoutSeconds = ConnectionOptions.DEFAULT_QUERY_TIMEOUT;

        private boolean autoGenerateSql;
        private String loadType = "mixed";
        private boolean addAutoincrement;
        private boolean guidPrimary;
        private long executeNumber;
        private long uniqueQueryNumber = 10;
        private long uniqueWriteNumber = 10;
        private long writeNumber = 100;
        private int secondaryIndexes;
        private ColumnSpec intCols = ColumnSpec.ONE;
        private ColumnSpec charCols = ColumnSpec.ONE;
        private String query;
        private String create;
        private String preQuery;
        private String postQuery;
        private String delimiter = "\n";
        private String createSchema = "mysqlslap";
        private List<EngineSpec> engines = List.of();

        private List<Integer> concurrency = List.of(1);
        private int iterations = 1;
        private long numberOfQueries;
        private int commit;
        private int detach;
        private boolean onlyPrint;
        private String preSystem;
        private String postSystem;
        private boolean noDrop;
        private boolean silent;
        private int verbose;
        private String csv;
        private boolean failFast;
        private boolean percentiles;
        private long timeSeconds;
        private long reportIntervalSeconds;
        private double rate;
        private String jsonFile;
        private String htmlFile;
        private int sweepMax;
        private Long seed;
        private ClientThreads clientThreads = ClientThreads.AUTO;

        private Builder() {
        }

        public Builder host(String v) { host = v; return this; }
        public Builder port(int v) { port = v; return this; }
        public Builder user(String v) { user = v; return this; }
        public Builder password(String v) { password = v; return this; }
        public Builder socket(String v) { socket = v; return this; }
        public Builder protocol(String v) { protocol = v; return this; }
        public Builder compress(boolean v) { compress = v; return this; }
        public Builder queryTimeoutSeconds(int v) { queryTimeoutSeconds = v; return this; }
        public Builder ssl(SslOptions v) { ssl = v; return this; }
        public Builder characterSet(String v) { characterSet = v; return this; }
        public Builder initCommand(String v) { initCommand = v; return this; }
        public Builder autoGenerateSql(boolean v) { autoGenerateSql = v; return this; }
        public Builder loadType(String v) { loadType = v; return this; }
        public Builder addAutoincrement(boolean v) { addAutoincrement = v; return this; }
        public Builder guidPrimary(boolean v) { guidPrimary = v; return this; }
        public Builder executeNumber(long v) { executeNumber = v; return this; }
        public Builder uniqueQueryNumber(long v) { uniqueQueryNumber = v; return this; }
        public Builder uniqueWriteNumber(long v) { uniqueWriteNumber = v; return this; }
        public Builder writeNumber(long v) { writeNumber = v; return this; }
        public Builder secondaryIndexes(int v) { secondaryIndexes = v; return this; }
        public Builder intCols(ColumnSpec v) { intCols = v; return this; }
        public Builder charCols(ColumnSpec v) { charCols = v; return this; }
        public Builder query(String v) { query = v; return this; }
        public Builder create(String v) { create = v; return this; }
        public Builder preQuery(String v) { preQuery = v; return this; }
        public Builder postQuery(String v) { postQuery = v; return this; }
        public Builder delimiter(String v) { delimiter = v; return this; }
        public Builder createSchema(String v) { createSchema = v; return this; }
        public Builder engines(List<EngineSpec> v) { engines = v; return this; }
        public Builder concurrency(List<Integer> v) { concurrency = v; return this; }
        public Builder concurrency(Integer... v) { concurrency = List.of(v); return this; }
        public Builder iterations(int v) { iterations = v; return this; }
        public Builder numberOfQueries(long v) { numberOfQueries = v; return this; }
        public Builder commit(int v) { commit = v; return this; }
        public Builder detach(int v) { detach = v; return this; }
        public Builder onlyPrint(boolean v) { onlyPrint = v; return this; }
        public Builder preSystem(String v) { preSystem = v; return this; }
        public Builder postSystem(String v) { postSystem = v; return this; }
        public Builder noDrop(boolean v) { noDrop = v; return this; }
        public Builder silent(boolean v) { silent = v; return this; }
        public Builder verbose(int v) { verbose = v; return this; }
        public Builder csv(String v) { csv = v; return this; }
        public Builder failFast(boolean v) { failFast = v; return this; }
        public Builder percentiles(boolean v) { percentiles = v; return this; }
        public Builder timeSeconds(long v) { timeSeconds = v; return this; }
        public Builder reportIntervalSeconds(long v) { reportIntervalSeconds = v; return this; }
        public Builder rate(double v) { rate = v; return this; }
        public Builder jsonFile(String v) { jsonFile = v; return this; }
        public Builder htmlFile(String v) { htmlFile = v; return this; }
        public Builder sweepMax(int v) { sweepMax = v; return this; }
        public Builder seed(Long v) { seed = v; return this; }
        public Builder clientThreads(ClientThreads v) { clientThreads = v; return this; }

        /** Checks the options in mysqlslap's order and with its messages; throws {@link SlapException}. */
        public SlapOptions build() {
            if (autoGenerateSql && (create != null || query != null)) {
                throw new SlapException("Can't use --auto-generate-sql when create and query strings are specified!", 1);
            }
            if (autoGenerateSql && guidPrimary && addAutoincrement) {
                throw new SlapException("Either auto-generate-sql-guid-primary or auto-generate-sql-add-autoincrement can be used!", 1);
            }
            if (autoGenerateSql && LoadType.of(loadType) == LoadType.KEY && !addAutoincrement && !guidPrimary) {
                throw new SlapException("Can't perform key test without a primary key!", 1);
            }
            if (autoGenerateSql && numberOfQueries > 0 && executeNumber > 0) {
                throw new SlapException("Either auto-generate-sql-execute-number or number-of-queries can be used!", 1);
            }
            requireAtLeast("iterations", iterations, 1);
            requireAtLeast("number-of-queries", numberOfQueries, 0);
            requireAtLeast("auto-generate-sql-execute-number", executeNumber, 0);
            requireAtLeast("auto-generate-sql-unique-query-number", uniqueQueryNumber, 0);
            requireAtLeast("auto-generate-sql-unique-write-number", uniqueWriteNumber, 0);
            requireAtLeast("auto-generate-sql-write-number", writeNumber, 0);
            requireAtLeast("auto-generate-sql-secondary-indexes", secondaryIndexes, 0);
            requireAtLeast("commit", commit, 0);
            requireAtLeast("detach", detach, 0);
            requireAtLeast("time", timeSeconds, 0);
            requireAtLeast("report-interval", reportIntervalSeconds, 0);
            requireAtLeast("sweep", sweepMax, 0);
            if (concurrency.isEmpty() || concurrency.stream().anyMatch(c -> c == null || c < 1)) {
                throw new SlapException("--concurrency: " + concurrency + " (expected: client counts >= 1)", 1);
            }
            if (!(rate >= 0) || Double.isInfinite(rate)) {
                throw new SlapException("--rate: " + rate + " (expected: queries per second > 0)", 1);
            }
            if (onlyPrint && htmlFile != null) {
                throw new SlapException("--report-html draws a run, and --only-print runs nothing", 1);
            }
            if (sweepMax > 0 && rate > 0) {
                throw new SlapException("--sweep and --rate cannot be combined: a sweep looks for the highest"
                        + " throughput, which a fixed rate caps", 1);
            }
            ConnectionOptions connection = new ConnectionOptions(host, port, user, password, socket, protocol,
                    compress, ssl, initCommand, characterSet, queryTimeoutSeconds);
            WorkloadOptions workload = new WorkloadOptions(autoGenerateSql, loadType, addAutoincrement, guidPrimary,
                    executeNumber, uniqueQueryNumber, uniqueWriteNumber, writeNumber, secondaryIndexes, intCols,
                    charCols, query, create, preQuery, postQuery, delimiter, createSchema, engines);
            return new SlapOptions(connection, workload, concurrency, iterations, numberOfQueries, commit, detach,
                    onlyPrint, preSystem, postSystem, noDrop, silent || onlyPrint || csv != null, verbose, csv,
                    failFast, percentiles, timeSeconds, reportIntervalSeconds, rate, jsonFile, htmlFile, sweepMax, seed,
                    clientThreads);
        }

        private static void requireAtLeast(String option, long value, long min) {
            if (value < min) {
                throw new SlapException("--" + option + ": " + value + " (expected: >= " + min + ")", 1);
            }
        }
    }
}
