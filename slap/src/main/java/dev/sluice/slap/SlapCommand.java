package dev.sluice.slap;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.Console;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code sluice slap}: mysqlslap's options, defaults and output, plus slap's additions. Numbers
 * are read as the mysql clients read them (K/M/G suffixes, exit status 9 on a bad value); the
 * run itself is {@link Slap#run(SlapOptions, PrintWriter, PrintWriter)}.
 */
@Command(name = "slap", sortOptions = false, usageHelpAutoWidth = true,
        description = {"Run a query multiple times against the server: a mysqlslap-compatible load client.",
                "Without a TLS option slap connects in plaintext (as mariadb-slap --skip-ssl)."},
        footer = {"", "Beyond mysqlslap (the default output never changes): --percentiles, --time, --report-interval,",
                "--rate, --json, --report-html, --sweep, --fail-fast, --query-timeout; errors are counted per code and reported on stderr.",
                "--replay FILE [--speed=1.0|N|max] [--concurrency=preserve|N] [--user-map=FILE] plays a capture of sluice proxy back;",
                "with --compare=HOST:PORT on two servers at once, comparing their answers (their data changes: use copies).",
                "", "Default options are read from the following files in the given order:",
                "/etc/my.cnf /etc/mysql/my.cnf $MARIADB_HOME/my.cnf ~/.my.cnf",
                "The following groups are read: mysqlslap mariadb-slap client client-server client-mariadb"})
public final class SlapCommand implements Callable<Integer> {

    static final String ASK_PASSWORD = "\0ask";

    @Spec
    private CommandSpec spec;

    private final OptionFiles.Locations optionFiles;
    /** The options the option files gave (the command line may have overridden some). */
    private List<OptionFiles.Argument> fromFiles = List.of();

    public SlapCommand() {
        this(OptionFiles.Locations.system());
    }

    SlapCommand(OptionFiles.Locations optionFiles) {
        this.optionFiles = optionFiles;
    }

    @Mixin
    private SlapConnectionArgs connection = new SlapConnectionArgs();

    @Option(names = {"-?", "--help"}, usageHelp = true, description = "Display this help and exit.")
    private boolean help;

    @Option(names = {"-V", "--version"}, versionHelp = true, description = "Output version information and exit.")
    private boolean version;

    @Option(names = {"-a", "--auto-generate-sql"}, description = "Generate SQL where not supplied by file or command line.")
    private boolean autoGenerateSql;

    @Option(names = "--auto-generate-sql-add-autoincrement", description = "Add an AUTO_INCREMENT column to auto-generated tables.")
    private boolean addAutoincrement;

    @Option(names = "--auto-generate-sql-execute-number", paramLabel = "#", description = "Set this number to generate a set number of queries to run.")
    private String executeNumber;

    @Option(names = "--auto-generate-sql-guid-primary", description = "Add GUID based primary keys to auto-generated tables.")
    private boolean guidPrimary;

    @Option(names = "--auto-generate-sql-load-type", paramLabel = "name", description = "Specify test load type: mixed, update, write, key, or read; default is mixed.")
    private String loadType = "mixed";

    @Option(names = "--auto-generate-sql-secondary-indexes", paramLabel = "#", description = "Number of secondary indexes to add to auto-generated tables.")
    private String secondaryIndexes;

    @Option(names = "--auto-generate-sql-unique-query-number", paramLabel = "#", description = "Number of unique queries to generate for automatic tests (default 10).")
    private String uniqueQueryNumber;

    @Option(names = "--auto-generate-sql-unique-write-number", paramLabel = "#", description = "Number of unique queries to generate for auto-generate-sql-write-number (default 10).")
    private String uniqueWriteNumber;

    @Option(names = "--auto-generate-sql-write-number", paramLabel = "#", description = "Number of row inserts to perform for each thread (default is 100).")
    private String writeNumber;

    @Option(names = "--commit", paramLabel = "#", description = "Commit records every X number of statements.")
    private String commit;

    @Option(names = {"-c", "--concurrency"}, paramLabel = "name", description = "Number of clients to simulate for query to run (comma list).")
    private String concurrency = "1";

    @Option(names = "--create", paramLabel = "name", description = "File or string to use create tables.")
    private String create;

    @Option(names = "--create-schema", paramLabel = "name", description = "Schema to run tests in (default mysqlslap).")
    private String createSchema = "mysqlslap";

    @Option(names = "--csv", arity = "0..1", fallbackValue = "-", paramLabel = "name", description = "Generate CSV output to named file or to stdout if no file is named.")
    private String csv;

    @Option(names = {"-F", "--delimiter"}, paramLabel = "name", description = "Delimiter to use in SQL statements supplied in file or command line.")
    private String delimiter = "\n";

    @Option(names = "--detach", paramLabel = "#", description = "Detach (close and reopen) connections after X number of requests.")
    private String detach;

    @Option(names = {"-e", "--engine"}, paramLabel = "name", description = "Comma separated list of storage engines to use for creating the table; engine:option adds table options.")
    private String engine;

    @Option(names = {"-i", "--iterations"}, paramLabel = "#", description = "Number of times to run the tests.")
    private String iterations;

    @Option(names = "--no-drop", description = "Do not drop the schema after the test.")
    private boolean noDrop;

    @Option(names = {"-x", "--number-char-cols"}, paramLabel = "name", description = "Number of VARCHAR columns to create in table if specifying --auto-generate-sql (N or N:I for indexed).")
    private String charCols;

    @Option(names = {"-y", "--number-int-cols"}, paramLabel = "name", description = "Number of INT columns to create in table if specifying --auto-generate-sql (N or N:I for indexed).")
    private String intCols;

    @Option(names = "--number-of-queries", paramLabel = "#", description = "Limit each client to this number of queries (this is not exact): the total divided by the clients.")
    private String numberOfQueries;

    @Option(names = "--only-print", description = "Do not connect to the databases, but instead print out what would have been done.")
    private boolean onlyPrint;

    @Option(names = "--post-query", paramLabel = "name", description = "Query to run or file containing query to execute after tests have completed.")
    private String postQuery;

    @Option(names = "--post-system", paramLabel = "name", description = "system() string to execute after tests have completed.")
    private String postSystem;

    @Option(names = "--pre-query", paramLabel = "name", description = "Query to run or file containing query to execute before running tests.")
    private String preQuery;

    @Option(names = "--pre-system", paramLabel = "name", description = "system() string to execute before running tests.")
    private String preSystem;

    @Option(names = {"-q", "--query"}, paramLabel = "name", description = "Query to run or file containing query to run.")
    private String query;

    @Option(names = {"-s", "--silent"}, description = "Run program in silent mode - no output.")
    private boolean silent;

    @Option(names = {"-v", "--verbose"}, description = "More verbose output; you can use this multiple times to get even more verbose output.")
    private boolean[] verbose = new boolean[0];

    @Option(names = "--print-defaults", description = "Print the program argument list (from the option files) and exit.")
    private boolean printDefaults;

    @Option(names = "--no-defaults", description = "Don't read default options from any option file.")
    private boolean noDefaults;

    @Option(names = "--defaults-file", paramLabel = "#", description = "Only read default options from the given file #.")
    private String defaultsFile;

    @Option(names = "--defaults-extra-file", paramLabel = "#", description = "Read this file after the global files are read.")
    private String defaultsExtraFile;

    @Option(names = "--defaults-group-suffix", paramLabel = "#", description = "Also read groups with concat(group, suffix).")
    private String defaultsGroupSuffix;

    @Option(names = "--fail-fast", description = "Stop at the first failed query or connect, as mysqlslap does (exit status 1).")
    private boolean failFast;

    @Option(names = {"--percentiles", "--latency"}, description = "Add latency p50/p95/p99/max and queries per second to each result.")
    private boolean percentiles;

    @Option(names = "--time", paramLabel = "S", description = "Run each iteration for S seconds (clients loop over their queries until then).")
    private String time;

    @Option(names = "--query-timeout", paramLabel = "S", description = "Abandon a query with no answer after S seconds (default: 600; 0: wait for ever): it counts as failed and its client reconnects, so a stalled server cannot hang the run.")
    private String queryTimeout;

    @Option(names = "--report-interval", paramLabel = "S", description = "Print sysbench-style throughput and latency lines every S seconds.")
    private String reportInterval;

    @Option(names = "--rate", paramLabel = "N", description = "Open loop: N queries per second across all clients; latency counts from the intended start.")
    private String rate;

    @Option(names = "--json", paramLabel = "FILE", description = "Write every figure of every run to FILE as JSON (with --replay --compare: the comparison per digest).")
    private String json;

    @Option(names = "--report-html", paramLabel = "FILE", description = "Write a self-contained HTML page with charts of the run to FILE: throughput and p50/p99 latency per report interval (--report-interval, else every second); for --sweep, throughput and latency against clients with the knee marked. With --replay --compare: the comparison per digest.")
    private String reportHtml;

    @Option(names = "--sweep", arity = "0..1", fallbackValue = "1024", paramLabel = "MAX", description = "Double the clients from 1 (up to MAX, default 1024) until throughput stops growing; name the knee.")
    private String sweep;

    @Option(names = "--seed", paramLabel = "N", description = "Seed for the generated values (default: a fresh one).")
    private String seed;

    @Option(names = "--client-threads", paramLabel = "auto|virtual|platform", description = "Thread per client: auto (default) uses platform threads up to 256 clients and virtual threads above.")
    private String clientThreads = "auto";

    @Option(names = "--replay", paramLabel = "FILE", description = "Replay a jsonl capture of sluice proxy: each captured session on its own client, statements in order, prepared statements prepared; compares counts and latencies per digest.")
    private String replay;

    @Option(names = "--speed", paramLabel = "1.0|N|max", description = "With --replay: divide the captured pauses by this (max: no pauses).")
    private String speed;

    @Option(names = "--compare", paramLabel = "HOST:PORT", description = "With --replay: play every statement on this second server too (same user, password and TLS options), one at a time in the capture's order, and report per digest where the answers differ (rows, column types, affected rows, warnings, errors) and both sides' p50/p99. The capture's writes go to both servers: run it on throw-away copies. Exit status 1 when any answer differs.")
    private String compare;

    @Option(names = "--user-map", paramLabel = "FILE", description = "With --replay: lines of CAPTURED_USER USER[:PASSWORD] ('*' for any other user): each captured session logs in as its mapped account; without it, as -u.")
    private String userMap;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        try {
            OptionFiles.Result files = OptionFiles.read(new OptionFiles.Selection(noDefaults, path(defaultsFile),
                    path(defaultsExtraFile), defaultsGroupSuffix), optionFiles, name -> OptionFiles.kindOf(spec, name));
            files.warnings().forEach(w -> err.print("slap: " + w + "\n"));
            if (printDefaults) {
                out.print("slap would have been started with the following arguments:\n");
                files.arguments().forEach(a -> out.print(a.shown() + " "));
                out.print("\n");
                out.flush();
                return 0;
            }
            fromFiles = files.arguments();
            fill(files);
        } catch (SlapException e) {
            return failed(e, out, err);
        }
        try {
            if (replay != null || speed != null || compare != null || userMap != null) {
                ReplayOptions options = replayOptions();
                if (options.compare() != null) {
                    return Compare.run(options, out, err).exitStatus();
                }
                Replay.run(options, out, err);
                return 0;
            }
            return exitStatus(Slap.run(options(), out, err), err);
        } catch (SlapException e) {
            int exit = failed(e, out, err);
            if (!fromFiles.isEmpty()) {
                err.print("slap: these options came from option files: " + OptionFiles.origins(fromFiles)
                        + " (--no-defaults reads none)\n");
                err.flush();
            }
            return exit;
        }
    }

    /**
     * 1 when any query failed or any client could not connect, as mysqlslap exits 1 on its first
     * failed query: slap runs on and reports them all, but a script must still see the failure.
     */
    static int exitStatus(SlapResult result, PrintWriter err) {
        long failedQueries = result.runs().stream().mapToLong(ConcurrencyResult::errorCount).sum();
        long failedConnects = result.runs().stream().mapToLong(ConcurrencyResult::failedConnectCount).sum();
        if (failedQueries == 0 && failedConnects == 0) {
            return 0;
        }
        String what = (failedQueries > 0 ? failedQueries + " queries" : "")
                + (failedQueries > 0 && failedConnects > 0 ? " and " : "")
                + (failedConnects > 0 ? failedConnects + " connects" : "");
        err.print("slap: exit status 1: " + what + " failed in all (see above)\n");
        err.flush();
        return 1;
    }

    private static int failed(SlapException e, PrintWriter out, PrintWriter err) {
        out.flush();
        err.print("slap: " + e.getMessage() + "\n");
        err.flush();
        return e.exitCode();
    }

    /**
     * Gives every option the command line left out the value the option files give it: they are
     * parsed into a command of their own, a later line overriding an earlier one, and each option
     * they set is copied here unless the command line set it, so the command line wins, as in
     * the mysql clients.
     */
    private void fill(OptionFiles.Result files) {
        if (files.arguments().isEmpty()) {
            return;
        }
        CommandLine fileLine = new CommandLine(new SlapCommand(OptionFiles.Locations.none()));
        fileLine.setOverwrittenOptionsAllowed(true);
        try {
            fileLine.parseArgs(files.texts().toArray(String[]::new));
        } catch (CommandLine.ParameterException e) {
            throw new SlapException(e.getMessage() + " (from the option files: "
                    + OptionFiles.origins(files.arguments()) + ")", 1);
        }
        CommandLine.ParseResult given = spec.commandLine().getParseResult();
        for (OptionSpec set : fileLine.getParseResult().matchedOptions()) {
            if (given == null || !given.hasMatchedOption(set.longestName())) {
                spec.findOption(set.longestName()).setValue(set.getValue());
            }
        }
    }

    private static Path path(String name) {
        return name == null ? null : Path.of(name);
    }

    /** The options this command line gives, checked as mysqlslap checks them. */
    SlapOptions options() {
        SlapOptions.Builder b = SlapOptions.builder();
        connection.applyTo(b, this::askPassword);
        b.autoGenerateSql(autoGenerateSql).addAutoincrement(addAutoincrement).guidPrimary(guidPrimary).loadType(loadType)
                .query(query).create(create).preQuery(preQuery).postQuery(postQuery).delimiter(delimiter)
                .createSchema(createSchema).onlyPrint(onlyPrint).preSystem(preSystem).postSystem(postSystem)
                .noDrop(noDrop).silent(silent).verbose(verbose.length).csv(csv).failFast(failFast)
                .percentiles(percentiles).jsonFile(json).htmlFile(reportHtml).clientThreads(ClientThreads.parse(clientThreads));
        if (executeNumber != null) b.executeNumber(number(executeNumber, "auto-generate-sql-execute-number"));
        if (secondaryIndexes != null) b.secondaryIndexes((int) number(secondaryIndexes, "auto-generate-sql-secondary-indexes", Integer.MAX_VALUE));
        if (uniqueQueryNumber != null) b.uniqueQueryNumber(number(uniqueQueryNumber, "auto-generate-sql-unique-query-number"));
        if (uniqueWriteNumber != null) b.uniqueWriteNumber(number(uniqueWriteNumber, "auto-generate-sql-unique-write-number"));
        if (writeNumber != null) b.writeNumber(number(writeNumber, "auto-generate-sql-write-number"));
        if (commit != null) b.commit((int) number(commit, "commit", Integer.MAX_VALUE));
        if (detach != null) b.detach((int) number(detach, "detach", Integer.MAX_VALUE));
        if (iterations != null) b.iterations((int) number(iterations, "iterations", Integer.MAX_VALUE));
        if (numberOfQueries != null) b.numberOfQueries(number(numberOfQueries, "number-of-queries"));
        if (time != null) b.timeSeconds(number(time, "time"));
        if (reportInterval != null) b.reportIntervalSeconds(number(reportInterval, "report-interval"));
        if (queryTimeout != null) b.queryTimeoutSeconds((int) number(queryTimeout, "query-timeout", Integer.MAX_VALUE));
        if (rate != null) b.rate(MysqlNumber.parseDouble(rate, "rate"));
        if (sweep != null) b.sweepMax((int) MysqlNumber.parse(sweep, "sweep", 1, 1 << 20));
        if (seed != null) b.seed(MysqlNumber.parse(seed, "seed", Long.MIN_VALUE, Long.MAX_VALUE));
        b.concurrency(SlapOptions.parseConcurrency(concurrency));
        if (intCols != null) b.intCols(ColumnSpec.parse(intCols, "number-int-cols"));
        if (charCols != null) b.charCols(ColumnSpec.parse(charCols, "number-char-cols"));
        if (engine != null) b.engines(EngineSpec.parseList(engine));
        return b.build();
    }

    /** --replay's options: the connection options, --speed, and --concurrency as preserve or a count. */
    ReplayOptions replayOptions() {
        if (replay == null) {
            throw new SlapException((speed != null ? "--speed" : compare != null ? "--compare" : "--user-map")
                    + " applies to --replay only", 1);
        }
        if (autoGenerateSql || query != null || create != null || iterations != null || numberOfQueries != null
                || time != null || rate != null || sweep != null) {
            throw new SlapException("--replay runs the captured statements: it cannot be combined with --auto-generate-sql,"
                    + " --query, --create, --iterations, --number-of-queries, --time, --rate or --sweep", 1);
        }
        SlapOptions.Builder b = SlapOptions.builder();
        connection.applyTo(b, this::askPassword);
        boolean concurrencyGiven = spec.commandLine().getParseResult() != null
                && spec.commandLine().getParseResult().hasMatchedOption("--concurrency")
                || fromFiles.stream().anyMatch(a -> a.name().equals("concurrency"));
        ConnectionOptions first = b.build().connection();
        ConnectionOptions second = compare == null ? null : first.at(compare, "compare");
        return new ReplayOptions(Path.of(replay), ReplayOptions.parseSpeed(speed == null ? "1.0" : speed),
                concurrencyGiven ? ReplayOptions.parseConcurrency(concurrency) : ReplayOptions.PRESERVE,
                first, ClientThreads.parse(clientThreads), userMap == null ? UserMap.NONE : UserMap.read(Path.of(userMap)),
                second, path(json), path(reportHtml));
    }

    private static long number(String value, String option) {
        return MysqlNumber.parse(value, option, 0, Long.MAX_VALUE);
    }

    private static long number(String value, String option, long max) {
        return MysqlNumber.parse(value, option, 0, max);
    }

    private String askPassword() {
        Console console = System.console();
        if (console == null || !Terminal.interactive()) {
            throw new SlapException("-p without a value asks for the password on a terminal, and there is none;"
                    + " give it as -pSECRET or --password=SECRET", 1);
        }
        char[] typed = console.readPassword("Enter password: ");
        return typed == null ? "" : new String(typed);
    }
}
