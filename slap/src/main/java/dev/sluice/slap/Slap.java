package dev.sluice.slap;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;

/**
 * Runs a slap benchmark: mysqlslap's main loop (per engine, per concurrency value, per
 * iteration: set up the schema, run the timed client phase, clean up) and its output, plus
 * slap's additions. The plain Java entry point for code that does not go through the command line.
 */
public final class Slap {

    private final SlapOptions options;
    private final PrintWriter out;
    private final PrintWriter err;
    private final List<ConcurrencyResult> runs = new ArrayList<>();
    private final List<SweepResult> sweeps = new ArrayList<>();
    private Workload workload;
    private Connector connector;
    private SqlSession setupSession;
    private PrintWriter csvFile;
    private IntervalReporter reporter;

    private Slap(SlapOptions options, PrintWriter out, PrintWriter err) {
        this.options = options;
        this.out = out;
        this.err = err;
    }

    /** Runs {@code options}, printing what mysqlslap would to {@code out}, notes and errors to {@code err}. */
    public static SlapResult run(SlapOptions options, PrintWriter out, PrintWriter err) {
        return new Slap(options, out, err).execute();
    }

    /** As {@link #run(SlapOptions, PrintWriter, PrintWriter)} with notes and errors on System.err. */
    public static SlapResult run(SlapOptions options, PrintWriter out) {
        return run(options, out, new PrintWriter(new OutputStreamWriter(System.err, StandardCharsets.UTF_8), true));
    }

    private SlapResult execute() {
        try {
            prepare();
            for (EngineSpec engine : engines()) {
                runEngine(engine);
            }
            SlapResult result = new SlapResult(runs, sweeps);
            if (options.jsonFile() != null) {
                JsonReport.write(Path.of(options.jsonFile()), options, result);
            }
            if (options.htmlFile() != null) {
                SlapHtmlReport.write(Path.of(options.htmlFile()), options, result);
            }
            return result;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SlapException("interrupted", 1, e);
        } finally {
            if (setupSession != null) {
                setupSession.close();
            }
            if (csvFile != null) {
                csvFile.close();
            }
            out.flush();
            err.flush();
        }
    }

    private void prepare() {
        WorkloadOptions w = options.workload();
        if (options.verbose() >= 2 && w.autoGenerateSql()) {
            out.print("Building Create Statements for Auto\nBuilding Query Statements for Auto\n");
        }
        workload = Workload.build(w, new RandomValues(
                options.seed() == null ? new SplittableRandom() : new SplittableRandom(options.seed())));
        if (options.verbose() >= 2) {
            out.print("Parsing engines to use.\n");
        }
        if (options.csv() != null && !options.csv().startsWith("-")) {
            try {
                csvFile = new PrintWriter(new OutputStreamWriter(new FileOutputStream(options.csv(), true),
                        StandardCharsets.UTF_8));
            } catch (IOException e) {
                throw new SlapException("Could not open csv file: " + options.csv() + " (" + e.getMessage() + ")", 1, e);
            }
        }
        ConnectionOptions c = options.connection();
        if ((c.protocol() != null && !c.protocol().equalsIgnoreCase("tcp")) || c.socket() != null) {
            err.print("slap: note: slap connects over TCP to " + c.address() + "; --socket and --protocol="
                    + (c.protocol() == null ? "socket" : c.protocol()) + " are accepted and not used\n");
        }
        if (options.onlyPrint()) {
            setupSession = new PrintSession(out);
            return;
        }
        OpenFileLimit limit = OpenFileLimit.current();
        if (limit != null) {
            limit.check(options.maxClients());
        }
        connector = new Connector(c, workload.hasMultiStatements()
                || (c.initCommand() != null && c.initCommand().indexOf(';') >= 0), characterSet(c, w, workload));
        try {
            setupSession = new JdbcSession(connector.open(null), options.verbose() >= 3 ? out : null);
        } catch (SQLException e) {
            throw new SlapException("Error when connecting to server: " + Connector.firstLine(e.getMessage()), 1, e);
        }
        warnAboutMaxConnections();
        reporter = new IntervalReporter(out, err, options.reportIntervalSeconds(),
                !options.silent() && Terminal.interactive(), options.commit() > 0, options.htmlFile() != null);
    }

    /**
     * mariadb-slap connects in latin1 (libmariadb's default character set), and slap does too
     * where the text it sends is the same either way: when the statements, the init command, the
     * user, the password, the schema and the engines are all ASCII, the same bytes in latin1 as in
     * utf8mb4. What changes is the server's work: a latin1 table (the default of a server without
     * character-set-server) takes latin1 text as it comes and returns it as it is, and converts
     * utf8mb4 text both ways: about 6% more server CPU on mysqlslap's mixed workload, measured.
     * Otherwise utf8mb4, so that any text arrives as it was written; --default-character-set chooses.
     */
    static String characterSet(ConnectionOptions c, WorkloadOptions w, Workload workload) {
        if (c.characterSet() != null) {
            return c.characterSet();
        }
        boolean ascii = workload.allAscii() && Stream.concat(
                        Stream.of(c.initCommand(), c.user(), c.password(), w.createSchema()),
                        w.engines().stream().flatMap(e -> Stream.of(e.name(), e.option())))
                .allMatch(Slap::ascii);
        return ascii ? "latin1" : "utf8mb4";
    }

    private static boolean ascii(String text) {
        return text == null || text.chars().allMatch(ch -> ch < 0x80);
    }

    private void warnAboutMaxConnections() {
        try {
            // SHOW rather than SELECT: the run's Com_select must count only mysqlslap's own statements.
            List<String> max = setupSession.column("SHOW VARIABLES LIKE 'max_connections'", 2);
            long allowed = Long.parseLong(max.get(0));
            if (options.maxClients() + 1 > allowed) {
                err.print("slap: note: the server allows " + allowed + " connections (max_connections) and this run"
                        + " opens up to " + (options.maxClients() + 1) + " (clients plus slap's own); expect error"
                        + " 1040 Too many connections\n");
            }
        } catch (SQLException | RuntimeException e) {
            // Only a hint: a server or proxy that hides the variable just gets no note.
        }
    }

    private List<EngineSpec> engines() {
        return options.workload().engines().isEmpty() ? Collections.singletonList(null) : options.workload().engines();
    }

    private void runEngine(EngineSpec engine) throws InterruptedException {
        if (options.verbose() >= 2) {
            out.print("Starting Concurrency Test\n");
        }
        SchemaSetup setup = new SchemaSetup(setupSession, options.workload().createSchema(), options.onlyPrint());
        Sweep sweep = options.sweepMax() > 0 ? new Sweep(options.sweepMax()) : null;
        for (int clients : options.plannedConcurrency()) {
            ConcurrencyResult result = concurrencyLoop(setup, clients, engine);
            runs.add(result);
            report(result);
            if (sweep != null && !sweep.accept(result)) {
                break;
            }
        }
        if (!options.preserveSchema()) {
            setup.dropSchema();
        }
        if (sweep != null) {
            SweepResult swept = sweep.result(engine == null ? null : engine.name());
            sweeps.add(swept);
            if (!options.silent()) {
                out.print(Sweep.table(swept));
            }
        }
        out.flush();
    }

    private ConcurrencyResult concurrencyLoop(SchemaSetup setup, int clients, EngineSpec engine)
            throws InterruptedException {
        long limit = options.clientLimit(clients, workload);
        if (options.numberOfQueries() > 0 && limit == 0) {
            err.print("slap: note: " + clients + " clients for --number-of-queries=" + options.numberOfQueries()
                    + ": " + options.numberOfQueries() + " / " + clients + " is 0 queries per client, which mysqlslap"
                    + " (and slap) take as \"run the query list once\", so each client runs "
                    + workload.queries().size() + " statements\n");
            err.flush();
        }
        List<PhaseResult> iterations = new ArrayList<>();
        for (int i = 0; i < options.iterations(); i++) {
            if (!options.preserveSchema()) {
                setup.dropSchema();
            }
            if (options.workload().createsSchema()) {
                setup.createSchema(workload.setupStatements(), engine);
            }
            if (options.verbose() >= 2) {
                out.print("Generating primary key list\n");
            }
            List<String> keys = options.workload().hasPrimaryKey() ? setup.primaryKeys(engine) : List.of();
            if (options.commit() > 0) {
                setup.run("SET AUTOCOMMIT=0");
            }
            system(options.preSystem(), "pre_system");
            setup.runAll(workload.pre());
            out.flush();
            PhaseContext context = new PhaseContext(connector, options.workload().createSchema(), workload.queries(),
                    limit, keys, options.commit(), options.detach(), options.failFast(), options.verbose(), out, err);
            if (reporter != null) {
                reporter.label(clients + " clients, iteration " + (i + 1) + "/" + options.iterations() + ":");
            }
            PhaseResult phase = ClientPhase.run(context, clients, options.timeSeconds(), options.rate(),
                    options.clientThreads().virtualFor(clients), reporter == null ? ClientPhase.NO_OBSERVER : reporter);
            if (phase.fatal() != null) {
                throw new SlapException(phase.fatal(), 1);
            }
            iterations.add(reporter == null ? phase : phase.withIntervals(reporter.takePoints()));
            setup.runAll(workload.post());
            system(options.postSystem(), "post_system");
        }
        if (options.verbose() >= 2) {
            out.print("Generating stats\n");
        }
        long perClient = limit;
        if (options.timeSeconds() > 0) {
            perClient = iterations.stream().mapToLong(PhaseResult::queries).sum() / ((long) clients * iterations.size());
        }
        String loadType = options.workload().loadType();
        return new ConcurrencyResult(engine == null ? null : engine.name(), loadType, clients, perClient, iterations);
    }

    private void report(ConcurrencyResult result) {
        String extra = options.percentiles() ? MysqlslapFormat.percentiles(result) : "";
        if (!options.silent()) {
            out.print(MysqlslapFormat.text(result, extra));
        } else if (!extra.isEmpty()) {
            err.print(extra.replace("\t", "slap: "));
        }
        if (options.csv() != null) {
            PrintWriter csv = csvFile != null ? csvFile : out;
            csv.print(MysqlslapFormat.csv(result));
            csv.flush();
        }
        out.flush();
        err.print(MysqlslapFormat.problems(result));
        err.flush();
    }

    private void system(String command, String option) throws InterruptedException {
        if (command == null) {
            return;
        }
        out.flush();
        int status = SystemCommand.run(command, out);
        if (status != 0) {
            err.print("Warning: Execution of " + option + " option returned " + status + ".\n");
            err.flush();
        }
    }
}
