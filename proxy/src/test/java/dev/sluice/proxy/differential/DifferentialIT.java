package dev.sluice.proxy.differential;

import static org.assertj.core.api.Assertions.fail;

import dev.sluice.proxy.ProxyServer;
import dev.sluice.testkit.MariaDbCluster;
import dev.sluice.testkit.ClusterSpec;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The proxy is transparent: sessions run generated plans (session and user variables, USE, DROP and
 * CREATE of the current schema, transactions, temporary tables, prepared statements and cursors,
 * user locks, large results read slowly, multi-statements, errors, CALL, COM_RESET_CONNECTION,
 * COM_CHANGE_USER, KILL QUERY), all at once, straight to the primary and then through the proxy in
 * session mode (primary only) and split mode (replicas, read_your_writes gtid), and each session
 * must see the same through the proxy as directly, step by step. Sessions speak through
 * Connector/J, or through {@link WireClient} as the mariadb client library does (results that end
 * in EOF packets, which the proxy must read differently), or each round through both
 * ({@code sluice.diff.client}: jdbc, wire, both).
 *
 * <p>The test has a cluster of its own: a split-mode bug can break replication (a statement
 * logged on a replica), which would fail every later test on the shared cluster.
 *
 * <p>Seeded: {@code -Dsluice.diff.seed=N} replays a run; a failure prints the seed, the step
 * sequence of each failing session and the properties that replay it alone. The other properties
 * are in {@link DiffSettings}; bench/differential.sh runs this with a larger budget.
 */
class DifferentialIT {

    private static final int DETAILED_REPORTS = 4;

    private static MariaDbCluster cluster;
    private static DiffSettings settings;
    private static boolean sequenceEngine;
    private static ProxyServer sessionProxy;
    private static ProxyServer splitProxy;
    private static ProcessList processList;
    private static NettyLeaks leaks;
    private static RowBasedReplication rowBased;
    /** When shrinking failing plans must stop, set at the first failure; 0 before it. */
    private static long shrinkEnd;
    private static boolean replicationBroken;

    @BeforeAll
    static void start() throws SQLException {
        cluster = MariaDbCluster.start(ClusterSpec.defaults());
        settings = DiffSettings.fromSystemProperties();
        leaks = NettyLeaks.watch();
        sequenceEngine = cluster.primary().hasEngine("SEQUENCE");
        rowBased = new RowBasedReplication(cluster.primary());
        System.out.printf("DifferentialIT: seed %d (%s), %d sessions of %d steps through %s, duration %d s,"
                        + " skipped [%s], focus %s, targets %s,"
                        + " large results %d to %d rows from %s%n", settings.seed(),
                settings.seedGiven() ? "from sluice.diff.seed" : "drawn; replay with -Dsluice.diff.seed=" + settings.seed(),
                settings.sessions(), settings.steps(), settings.clientName(), settings.duration().toSeconds(),
                settings.skippedNames(),
                settings.focus(), settings.targets(), settings.largeMin(), settings.largeMax(),
                sequenceEngine ? "the SEQUENCE engine" : "a recursive CTE (this server has no SEQUENCE engine)");
        sessionProxy = Proxies.sessionMode(cluster);
        splitProxy = Proxies.splitMode(cluster);
        processList = new ProcessList(cluster);
    }

    @AfterAll
    static void stop() throws SQLException {

        for (AutoCloseable closeable : new AutoCloseable[] {sessionProxy, splitProxy, processList, rowBased, cluster}) {
            try {
                if (closeable != null) {
                    closeable.close();
                }
            } catch (Exception e) {
                throw new SQLException("closing " + closeable, e);
            }
        }
    }

    private static Target target(Target.Kind kind) {
        return switch (kind) {
            case DIRECT -> new Target(kind, cluster.primary().port());
            case SESSION -> new Target(kind, sessionProxy.port());
            case SPLIT -> new Target(kind, splitProxy.port());
        };
    }

    @Test
    void everySessionSeesThroughTheProxyWhatItSeesDirectly() throws Exception {
        long end = System.nanoTime() + settings.duration().toNanos();
        List<String> failures = new ArrayList<>();
        int round = 0;
        DiffSettings base = settings;
        do {
            for (DiffSettings client : base.perClient()) {
                // runAll and the reports read the settings of the client this pass speaks through.
                settings = client;
                if (!round(round, failures)) {
                    break;
                }
            }
            round++;
        } while (failures.isEmpty() && System.nanoTime() < end);
        settings = base;
        replicationBroken(failures, "the last", settings.seed());
        for (String leak : leaks.collect()) {
            failures.add("Netty reported a leaked buffer: " + leak);
        }
        System.out.printf("DifferentialIT: %d rounds, %d failures%n", round, failures.size());
        if (!failures.isEmpty()) {
            StringBuilder message = new StringBuilder().append(failures.size()).append(" failures (base seed ")
                    .append(settings.seed()).append("); the first ").append(Math.min(DETAILED_REPORTS, failures.size()))
                    .append(":\n");
            failures.stream().limit(DETAILED_REPORTS).forEach(f -> message.append('\n').append(f));
            if (failures.size() > DETAILED_REPORTS) {
                message.append("\nand further:\n");
                failures.stream().skip(DETAILED_REPORTS).forEach(f -> message.append("  ")
                        .append(f, 0, f.indexOf('\n') < 0 ? f.length() : f.indexOf('\n')).append('\n'));
            }
            fail(message.toString());
        }
    }

    /** One round's sessions straight to the primary, then on each target; false when nothing more can run. */
    private static boolean round(int round, List<String> failures) throws Exception {
        long roundSeed = round == 0 ? settings.seed() : PlanGenerator.mix(settings.seed() + round);
        List<Plan> plans = new ArrayList<>();
        for (int session = 0; session < settings.sessions(); session++) {
            if (settings.runs(session)) {
                plans.add(PlanGenerator.plan(roundSeed, session, settings, sequenceEngine));
            }
        }
        Map<Integer, Transcript> reference = runAll(target(Target.Kind.DIRECT), plans, round, roundSeed);
        Reports.dump(roundSeed, reference);
        if (replicationBroken(failures, "direct", roundSeed)) {
            return false;
        }
        for (Plan plan : plans) {
            String abort = reference.get(plan.session()).abort();
            if (abort != null) {
                failures.add("session " + plan.session() + " of seed " + roundSeed + " stopped on the direct"
                        + " connection, so there is nothing to compare with: " + abort + "\n" + plan.listing(-1));
            }
        }
        for (Target.Kind kind : settings.targets()) {
            Map<Integer, Transcript> actual = runAll(target(kind), plans, round, roundSeed);
            Reports.dump(roundSeed, actual);
            for (Plan plan : plans) {
                Transcript expected = reference.get(plan.session());
                Transcript seen = actual.get(plan.session());
                Optional<Transcript.Difference> difference = expected.firstDifference(seen);
                if (difference.isPresent()) {
                    String report = Reports.difference(settings, roundSeed, plan, kind, difference.get(), expected, seen)
                            + shrunk(plan, difference.get().step(), kind, round, roundSeed);
                    System.out.println("DifferentialIT: " + report);
                    failures.add(report);
                }
            }
            if (replicationBroken(failures, kind.configName(), roundSeed)) {
                return false;
            }
            if (kind == Target.Kind.DIRECT) {
                continue;
            }
            ProxyServer proxy = kind == Target.Kind.SESSION ? sessionProxy : splitProxy;
            ProxyIdle.await(proxy, 15_000).ifPresent(busy -> failures.add(
                    "the " + kind.configName() + " proxy was not back at rest 15 s after round " + roundSeed
                            + " ended: " + busy));
        }
        return true;
    }

    /** Adds a failure and says so when the phase just run broke replication; nothing can run after that. */
    private static boolean replicationBroken(List<String> failures, String phase, long roundSeed) throws SQLException {
        if (replicationBroken) {
            return true;
        }
        Optional<String> wrong = ReplicaWatch.check(cluster);
        wrong.ifPresent(w -> failures.add("replication is broken after the " + phase + " phase of seed " + roundSeed
                + " (the sessions' steps are above or in the output; nothing more can run): " + w));
        replicationBroken = wrong.isPresent();
        return replicationBroken;
    }

    /**
     * The shortest sequence found, within what is left of the shrink budget, that differs alone
     * on {@code kind}; or why there is none.
     */
    private static String shrunk(Plan plan, int failing, Target.Kind kind, int round, long roundSeed) throws Exception {
        if (shrinkEnd == 0) {
            shrinkEnd = System.nanoTime() + settings.shrink().toNanos();
        }
        if (System.nanoTime() >= shrinkEnd || replicationBroken) {
            return "";
        }
        Shrinker.Check alone = candidate -> {
            Transcript expected = runAll(target(Target.Kind.DIRECT), List.of(candidate), round, roundSeed, false)
                    .get(candidate.session());
            return expected.firstDifference(runAll(target(kind), List.of(candidate), round, roundSeed, false)
                    .get(candidate.session()));
        };
        Plan shortest;
        try {
            shortest = Shrinker.shrink(plan, failing, alone, shrinkEnd);
        } catch (dev.sluice.testkit.MariaDbException e) {
            replicationBroken = true;
            return "  shrinking stopped, replication broke while a shortened plan ran: "
                    + ReplicaWatch.check(cluster).orElse(e.getMessage()) + "\n";
        }
        Optional<String> broken = ReplicaWatch.check(cluster);
        if (broken.isPresent()) {
            replicationBroken = true;
            return "  shrinking stopped, replication broke while a shortened plan ran: " + broken.get() + "\n";
        }
        if (!alone.run(shortest).filter(d -> d.step() == shortest.steps().size() - 1).isPresent()) {
            return "  run alone once more, the session's first " + (failing + 1) + " steps did not differ: the"
                    + " difference depends on the sessions beside it, on timing, or on what the proxy did before"
                    + " (the replay above runs it alone on fresh proxies)\n";
        }
        return "  the shortest sequence found that differs at its last step when run alone (" + shortest.steps().size()
                + " of " + (failing + 1) + " steps):\n" + shortest.listing(-1);
    }

    private static Map<Integer, Transcript> runAll(Target target, List<Plan> plans, int round, long roundSeed)
            throws InterruptedException, SQLException {
        return runAll(target, plans, round, roundSeed, true);
    }

    /** Every plan at once on {@code target}; sessions still running at the phase timeout are aborted. */
    private static Map<Integer, Transcript> runAll(Target target, List<Plan> plans, int round, long roundSeed,
                                                   boolean say) throws InterruptedException, SQLException {
        dropSchemas(plans);
        long start = System.nanoTime();
        long deadline = start + settings.phaseTimeout().toNanos();
        Map<Integer, DifferentialRun> runs = new LinkedHashMap<>();
        Map<Integer, Future<Transcript>> futures = new LinkedHashMap<>();
        ExecutorService pool = Executors.newFixedThreadPool(plans.size());
        try {
            for (Plan plan : plans) {
                DifferentialRun run = settings.wire() ? new WireSessionRun(plan, target, round, settings)
                        : new SessionRun(plan, target, round, settings, processList);
                runs.put(plan.session(), run);
                futures.put(plan.session(), pool.submit(run));
            }
            Map<Integer, Transcript> transcripts = new LinkedHashMap<>();
            for (Map.Entry<Integer, Future<Transcript>> entry : futures.entrySet()) {
                DifferentialRun run = runs.get(entry.getKey());
                transcripts.put(entry.getKey(), await(entry.getValue(), run, deadline));
            }
            long steps = transcripts.values().stream().mapToLong(t -> t.entries().size()).sum();
            if (say) {
                System.out.printf("DifferentialIT: seed %d on %s: %d sessions, %d steps in %.1f s%n", roundSeed,
                        target.name(), plans.size(), steps, (System.nanoTime() - start) / 1e9);
            }
            return transcripts;
        } finally {
            pool.shutdownNow();
        }
    }

    private static Transcript await(Future<Transcript> future, DifferentialRun run, long deadline) throws InterruptedException {
        try {
            return future.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            run.abort("still running when the phase timeout (" + settings.phaseTimeout().toSeconds() + " s) struck");
            try {
                return future.get(10, TimeUnit.SECONDS);
            } catch (TimeoutException | ExecutionException stuck) {
                return run.transcript("its thread did not come back after the abort");
            }
        } catch (ExecutionException e) {
            return run.transcript("failed: " + e.getCause());
        }
    }

    /** Each plan starts from no schema of its own, whichever target ran before. */
    private static void dropSchemas(List<Plan> plans) throws SQLException {
        try (Connection admin = cluster.primary().openAdmin(); Statement s = admin.createStatement()) {
            for (Plan plan : plans) {
                s.execute("DROP DATABASE IF EXISTS " + plan.schema());
            }
        }
        cluster.awaitReplicaCatchUp(Duration.ofSeconds(30));
    }
}
