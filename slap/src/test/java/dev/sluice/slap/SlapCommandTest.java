package dev.sluice.slap;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class SlapCommandTest {

    /** Exit status, stdout and stderr of one command line. */
    record Run(int exit, String out, String err) { }

    /** Runs slap as the command line would, without the machine's option files (see OptionFilesTest). */
    static Run slap(String... args) {
        return slap(OptionFiles.Locations.none(), args);
    }

    /** Runs slap with the option files of {@code optionFiles}. */
    static Run slap(OptionFiles.Locations optionFiles, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine line = new CommandLine(new SlapCommand(optionFiles));
        line.setOut(new PrintWriter(out, true));
        line.setErr(new PrintWriter(err, true));
        int exit = line.execute(args);
        return new Run(exit, out.toString(), err.toString());
    }

    static SlapOptions parse(String... args) {
        CommandLine line = new CommandLine(new SlapCommand(OptionFiles.Locations.none()));
        line.parseArgs(args);
        return ((SlapCommand) line.getCommand()).options();
    }

    @Test
    void shortAndLongFormsReachTheOptions() {
        SlapOptions o = parse("-h", "db1", "-P", "3307", "-u", "bob", "-psecret", "-c", "1,25", "-i", "3", "-a",
                "-x", "3:1", "-y", "2", "-e", "innodb", "-F", ";", "--number-of-queries=10K",
                "--create-schema=bench", "-s", "-vv", "--commit=5", "--detach=7", "-C");
        assertThat(o.connection().host()).isEqualTo("db1");
        assertThat(o.connection().port()).isEqualTo(3307);
        assertThat(o.connection().user()).isEqualTo("bob");
        assertThat(o.connection().password()).isEqualTo("secret");
        assertThat(o.connection().compress()).isTrue();
        assertThat(o.concurrency()).containsExactly(1, 25);
        assertThat(o.iterations()).isEqualTo(3);
        assertThat(o.workload().charCols()).isEqualTo(new ColumnSpec(3, true));
        assertThat(o.workload().intCols()).isEqualTo(new ColumnSpec(2, false));
        assertThat(o.workload().engines()).containsExactly(new EngineSpec("innodb", null));
        assertThat(o.workload().delimiter()).isEqualTo(";");
        assertThat(o.numberOfQueries()).isEqualTo(10240);
        assertThat(o.workload().createSchema()).isEqualTo("bench");
        assertThat(o.silent()).isTrue();
        assertThat(o.verbose()).isEqualTo(2);
        assertThat(o.commit()).isEqualTo(5);
        assertThat(o.detach()).isEqualTo(7);
    }

    @Test
    void csvWithoutAFileMeansStdoutAndTlsOptionsImplySsl() {
        assertThat(parse("--csv").csv()).isEqualTo("-");
        assertThat(parse("--csv=/tmp/x.csv").csv()).isEqualTo("/tmp/x.csv");
        assertThat(parse("--ssl").connection().ssl().sslMode()).isEqualTo("REQUIRED");
        assertThat(parse("--tls-version=TLSv1.3").connection().ssl().enabled()).isTrue();
        assertThat(parse("--ssl", "--skip-ssl").connection().ssl().enabled()).isFalse();
        assertThat(parse().connection().ssl().enabled()).isFalse();
    }

    @Test
    void extrasParse() {
        SlapOptions o = parse("--percentiles", "--time=5", "--report-interval=1", "--rate=250.5", "--json=/tmp/r.json",
                "--fail-fast", "--seed=9");
        assertThat(o.percentiles()).isTrue();
        assertThat(o.timeSeconds()).isEqualTo(5);
        assertThat(o.reportIntervalSeconds()).isEqualTo(1);
        assertThat(o.rate()).isEqualTo(250.5);
        assertThat(o.jsonFile()).isEqualTo("/tmp/r.json");
        assertThat(o.failFast()).isTrue();
        assertThat(o.seed()).isEqualTo(9L);
        assertThat(parse("--latency").percentiles()).isTrue();
        assertThat(parse("--sweep").sweepMax()).isEqualTo(1024);
        assertThat(parse("--sweep=64").sweepMax()).isEqualTo(64);
        assertThat(parse().clientThreads()).isEqualTo(ClientThreads.AUTO);
        assertThat(parse("--client-threads=Virtual").clientThreads()).isEqualTo(ClientThreads.VIRTUAL);
        assertThat(slap("--client-threads=green", "--only-print").err())
                .isEqualTo("slap: --client-threads: 'green' (expected: auto, virtual or platform)\n");
    }

    @Test
    void fewClientsGetPlatformThreadsManyGetVirtualOnes() {
        assertThat(ClientThreads.AUTO.virtualFor(256)).isFalse();
        assertThat(ClientThreads.AUTO.virtualFor(257)).isTrue();
        assertThat(ClientThreads.VIRTUAL.virtualFor(1)).isTrue();
        assertThat(ClientThreads.PLATFORM.virtualFor(8000)).isFalse();
    }

    @Test
    void conflictingOptionsGiveMysqlslapsMessageAndExitOne() {
        Run run = slap("-a", "--query=select 1", "--only-print");
        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.err()).isEqualTo("slap: Can't use --auto-generate-sql when create and query strings are specified!\n");
        assertThat(run.out()).isEmpty();
        assertThat(slap("-a", "--auto-generate-sql-load-type=key", "--only-print").err())
                .isEqualTo("slap: Can't perform key test without a primary key!\n");
    }

    @Test
    void badNumbersExitNineAndUnknownOptionsExitTwo() {
        Run bad = slap("--iterations=abc", "--only-print");
        assertThat(bad.exit()).isEqualTo(9);
        assertThat(bad.err()).contains("Unknown suffix 'c' used for variable 'iterations' (value 'abc')")
                .contains("slap: Error while setting value 'abc' to 'iterations'");
        Run unknown = slap("--bogus");
        assertThat(unknown.exit()).isEqualTo(2);
        assertThat(unknown.err()).contains("Unknown option: '--bogus'");
        Run protocol = slap("--protocol=carrier-pigeon", "--only-print");
        assertThat(protocol.exit()).isEqualTo(1);
        assertThat(protocol.err()).startsWith("slap: Unknown option to protocol: carrier-pigeon");
        assertThat(slap("--ssl-crl=x.pem", "--only-print").err()).contains("--ssl-crl and --ssl-crlpath are not supported");
    }

    @Test
    void csvFileThatCannotBeOpenedExitsOne(@TempDir Path dir) {
        Run run = slap("--csv=" + dir.resolve("missing/x.csv"), "--only-print", "-a");
        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.err()).startsWith("slap: Could not open csv file: " + dir.resolve("missing/x.csv"));
    }

    @Test
    void onlyPrintNeedsNoServerAndAppendsCsvToAFile(@TempDir Path dir) throws Exception {
        Path csv = dir.resolve("r.csv");
        Files.writeString(csv, "earlier\n");
        Run run = slap("--only-print", "-a", "--number-of-queries=4", "-c", "2", "--csv=" + csv,
                "--auto-generate-sql-write-number=2", "--auto-generate-sql-unique-query-number=1", "-h", "192.0.2.1");
        assertThat(run.exit()).isZero();
        assertThat(run.err()).isEmpty();
        List<String> lines = run.out().lines().map(l -> l.replaceAll("'[0-9A-Za-z]{126}'", "'S'").replaceAll("\\(\\d+,", "(N,")).toList();
        assertThat(lines).containsExactly(
                "DROP SCHEMA IF EXISTS `mysqlslap`;",
                "CREATE SCHEMA `mysqlslap`;",
                "use mysqlslap;",
                "CREATE TABLE `t1` (intcol1 INT(32) ,charcol1 VARCHAR(128));",
                "INSERT INTO t1 VALUES (N,'S');",
                "INSERT INTO t1 VALUES (N,'S');",
                "SELECT intcol1,charcol1 FROM t1;",
                "INSERT INTO t1 VALUES (N,'S');",
                "SELECT intcol1,charcol1 FROM t1;",
                "DROP SCHEMA IF EXISTS `mysqlslap`;");
        assertThat(Files.readAllLines(csv)).containsExactly("earlier", ",mixed,0.000,0.000,0.000,2,2");
    }

    @Test
    void moreClientsThanQueriesRunTheListOnceWithANote() {
        Run run = slap("--only-print", "-a", "--number-of-queries=3", "-c", "5", "--auto-generate-sql-unique-query-number=1",
                "--auto-generate-sql-load-type=read", "--auto-generate-sql-write-number=1");
        assertThat(run.exit()).isZero();
        assertThat(run.out().lines().filter(l -> l.startsWith("SELECT"))).hasSize(10);
        assertThat(run.err()).isEqualTo("slap: note: 5 clients for --number-of-queries=3: 3 / 5 is 0 queries per client,"
                + " which mysqlslap (and slap) take as \"run the query list once\", so each client runs 2 statements\n");
    }

    @Test
    void helpListsMysqlslapOptions() {
        Run run = slap("--help");
        assertThat(run.exit()).isZero();
        assertThat(run.out()).contains("--auto-generate-sql-load-type", "--number-of-queries", "--concurrency",
                "--percentiles", "--sweep", "-?, --help");
    }

    static ReplayOptions replayOptions(String... args) {
        CommandLine line = new CommandLine(new SlapCommand(OptionFiles.Locations.none()));
        line.parseArgs(args);
        return ((SlapCommand) line.getCommand()).replayOptions();
    }

    @Test
    void compareTakesTheFirstServersCredentialsAndReportFiles(@TempDir Path dir) {
        ReplayOptions o = replayOptions("-h", "db1", "-P", "3307", "-u", "bob", "-psecret", "--replay", "c.jsonl",
                "--compare", "db2:3308", "--json", dir.resolve("c.json").toString(), "--report-html",
                dir.resolve("c.html").toString(), "--speed=max");
        assertThat(o.compare().address()).isEqualTo("db2:3308");
        assertThat(o.compare().user()).isEqualTo("bob");
        assertThat(o.compare().password()).isEqualTo("secret");
        assertThat(o.jsonFile()).isEqualTo(dir.resolve("c.json"));
        assertThat(o.htmlFile()).isEqualTo(dir.resolve("c.html"));
        assertThat(replayOptions("--replay", "c.jsonl", "--compare", "[::1]:3310").compare().address())
                .isEqualTo("[::1]:3310");
        assertThat(replayOptions("--replay", "c.jsonl", "--compare", "db3").compare().port()).isEqualTo(3306);
    }

    @Test
    void compareAndReplayOptionsThatDoNotFitAreExplained() {
        assertThat(slap("--compare", "db2:3306").err()).contains("--compare applies to --replay only");
        assertThat(slap("--replay", "c.jsonl", "--compare", "db2:3306", "--concurrency=4").err())
                .contains("--compare plays one statement at a time in the capture's order: --concurrency does not apply");
        assertThat(slap("--replay", "c.jsonl", "--report-html=x.html").err())
                .contains("--json and --report-html with --replay need --compare");
        assertThat(slap("--replay", "c.jsonl", "--compare", ":3306").err()).contains("--compare: ':3306'");
        assertThat(slap("-a", "--only-print", "--report-html=x.html").err())
                .contains("--report-html draws a run, and --only-print runs nothing");
    }
}
