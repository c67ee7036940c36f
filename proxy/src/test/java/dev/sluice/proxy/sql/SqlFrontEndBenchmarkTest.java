package dev.sluice.proxy.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A small benchmark without JMH: prints ns/op (thread CPU time, steadier than wall time on a
 * shared machine) of classify, fingerprint and normalize for typical statements. Timings are
 * printed, never asserted. What it asserts is that the measured work is the intended one and that
 * the hot path allocates nothing.
 */
class SqlFrontEndBenchmarkTest {
    private static final int WARMUP = 60_000;
    private static final int ITERATIONS = 60_000;
    private static final int MIN_ITERATIONS = 10_000;
    private static final int ROUNDS = 3;

    private record Case(String name, String sql, StatementKind kind, boolean readOnly) {
    }

    private static final List<Case> CASES = List.of(
            new Case("sysbench point select", "SELECT c FROM sbtest1 WHERE id=4711", StatementKind.SELECT, true),
            new Case("sysbench range", "SELECT DISTINCT c FROM sbtest1 WHERE id BETWEEN 100 AND 199 ORDER BY c",
                    StatementKind.SELECT, true),
            new Case("sysbench update", "UPDATE sbtest1 SET k=k+1 WHERE id=4711", StatementKind.UPDATE, false),
            new Case("mysqlslap insert", "INSERT INTO t1 VALUES (964445884,'DPh7kD1E6f4MMQk1ioopsoIIcoD83DD8Wu7689K6o"
                    + "HTAjD3Hts6lYGv8x9G0EL0k87q8G2ExJjz2o3KhnIJBbEJYFROTpO5pNvxgyBT9nSCbNO9AiKL9QYhi0x3hL9')\0",
                    StatementKind.INSERT, false),
            new Case("SET NAMES", "SET NAMES utf8mb4", StatementKind.SET, false),
            new Case("Connector/J init", "/* mysql-connector-j-9.5.0 (Revision: a7b3c94f50efbddb9f0dd69b3e0d1aaa25305cd6) */"
                    + "SELECT  @@session.auto_increment_increment AS auto_increment_increment, @@character_set_client AS "
                    + "character_set_client, @@character_set_connection AS character_set_connection, "
                    + "@@character_set_results AS character_set_results, @@character_set_server AS character_set_server, "
                    + "@@collation_server AS collation_server, @@collation_connection AS collation_connection, "
                    + "@@init_connect AS init_connect, @@interactive_timeout AS interactive_timeout, @@license AS license, "
                    + "@@lower_case_table_names AS lower_case_table_names, @@max_allowed_packet AS max_allowed_packet, "
                    + "@@net_write_timeout AS net_write_timeout, @@performance_schema AS performance_schema, "
                    + "@@query_cache_size AS query_cache_size, @@query_cache_type AS query_cache_type, @@sql_mode AS "
                    + "sql_mode, @@system_time_zone AS system_time_zone, @@time_zone AS time_zone, @@tx_isolation AS "
                    + "transaction_isolation, @@wait_timeout AS wait_timeout", StatementKind.SELECT, true));

    @Test
    void printsNanosecondsPerOperation() {
        StatementClassifier classifier = new StatementClassifier();
        Digest digest = new Digest();
        long sink = 0;
        System.out.printf("ns/op, best of %d rounds, in thread CPU time (load average %.1f on %d cores)%n", ROUNDS,
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(),
                Runtime.getRuntime().availableProcessors());
        for (int round = 0; round < 5; round++) {
            for (Case c : CASES) {
                for (int work = 0; work < 3; work++) {
                    sink += run(classifier, digest, c.sql(), WARMUP / CASES.size(), work);
                }
            }
        }
        System.out.printf("%-24s %6s %12s %12s %12s%n", "statement", "chars", "classify", "fingerprint", "normalize");
        for (Case c : CASES) {
            Classification result = classifier.classify(c.sql());
            assertThat(result.kind()).as(c.name()).isEqualTo(c.kind());
            assertThat(result.readOnly()).as(c.name()).isEqualTo(c.readOnly());
            assertThat(digest.fingerprint(c.sql())).isEqualTo(Digest.hash(digest.normalize(c.sql())));
            int iterations = Math.max(MIN_ITERATIONS, Math.min(ITERATIONS, 2_000_000 / (c.sql().length() + 20)));
            for (int work = 0; work < 3; work++) {
                sink += run(classifier, digest, c.sql(), iterations, work);
            }
            double[] nanos = {Double.MAX_VALUE, Double.MAX_VALUE, Double.MAX_VALUE};
            for (int round = 0; round < ROUNDS; round++) {
                for (int work = 0; work < 3; work++) {
                    long start = cpuNanos();
                    sink += run(classifier, digest, c.sql(), iterations, work);
                    nanos[work] = Math.min(nanos[work], (cpuNanos() - start) / (double) iterations);
                }
            }
            System.out.printf("%-24s %6d %9.0f ns %9.0f ns %9.0f ns%n", c.name(), c.sql().length(), nanos[0], nanos[1],
                    nanos[2]);
        }
        assertThat(sink).isNotZero();
    }

    private static long cpuNanos() {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        return threads.isCurrentThreadCpuTimeSupported() ? threads.getCurrentThreadCpuTime() : System.nanoTime();
    }

    /** Work kinds: 0 classify, 1 fingerprint, 2 normalize. Returns a value the JIT cannot drop. */
    private static long run(StatementClassifier classifier, Digest digest, String sql, int iterations, int work) {
        long sink = 0;
        for (int i = 0; i < iterations; i++) {
            sink += switch (work) {
                case 0 -> classifier.classify(sql).kind().ordinal() + 1;
                case 1 -> digest.fingerprint(sql);
                default -> digest.normalize(sql).length();
            };
        }
        return sink;
    }

    @Test
    void classifyingAndFingerprintingAnOltpStatementAllocatesNothing() {
        assumeTrue(ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean,
                "skipped: this JVM cannot count allocated bytes per thread (no com.sun.management.ThreadMXBean)");
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        assumeTrue(threads.isThreadAllocatedMemorySupported() && threads.isThreadAllocatedMemoryEnabled(),
                "skipped: per-thread allocation counting is off in this JVM");
        StatementClassifier classifier = new StatementClassifier();
        Digest digest = new Digest();
        String sql = "SELECT c FROM sbtest1 WHERE id=4711";
        long sink = run(classifier, digest, sql, WARMUP, 0) + run(classifier, digest, sql, WARMUP, 1);
        long id = Thread.currentThread().threadId();
        long before = threads.getThreadAllocatedBytes(id);
        sink += run(classifier, digest, sql, ITERATIONS, 0) + run(classifier, digest, sql, ITERATIONS, 1);
        long bytes = threads.getThreadAllocatedBytes(id) - before;
        System.out.printf("allocated %d bytes over %d classify + %d fingerprint calls%n", bytes, ITERATIONS, ITERATIONS);
        assertThat(sink).isNotZero();
        assertThat(bytes).as("bytes allocated by %d calls", 2 * ITERATIONS).isLessThan(16 * 1024);
    }
}
