package dev.sluice.proxy.differential;

import static org.assertj.core.api.Assertions.fail;

import dev.sluice.proxy.ProxyServer;
import dev.sluice.testkit.MariaDbCluster;
import dev.sluice.testkit.MariaDbClusterExtension;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The proxy is transparent: sessions run generated plans (session and user variables, USE, DROP and
 * CREATE of the current schema, transactions, temporary tables, prepared statements and cursors,
 * user locks, large results read slowly, multi-statements, errors, CALL, COM_RESET_CONNECTION,
 * COM_CHANGE_USER, KILL QUERY), all at once, straight to the primary and then through the proxy in
 * session mode (primary only) and split mode (replicas, read_your_writes gtid), and each session
 * must see the same through the proxy as directly, step by step.
 *
 * <p>Seeded: {@code -Dsluice.diff.seed=N} replays a run; a failure prints the seed, the step
 * sequence of each failing session and the properties that replay it alone. The other properties
 * are in {@link DiffSettings}; bench/differential.sh runs this with a larger budget.
 */
@ExtendWith(MariaDbClusterExtension.class)
class DifferentialIT {

    private static final int DETAILED_REPORTS = 4;

    private static MariaDbCluster cluster;
    private static DiffSettings settings;
    private static boolean sequenceEngine;
    private static ProxyServer sessionProxy;
    private static ProxyServer splitProxy;
    private static ProcessList processList;
    private static RowBasedReplication rowBased;

    @BeforeAll
    static void start(MariaDbCluster shared) throws SQLException {
        cluster = shared;
        settings = DiffSettings.fromSystemProperties();
        sequenceEngine = cluster.primary().hasEngine("SEQUENCE");
        rowBased = new RowBasedReplication(cluster.primary());
        System.out.printf("DifferentialIT: seed %d (%s), %d sessions of %d steps, duration %d s, skipped [%s], targets %s,"
                        + " large results %d to %d rows from %s%n", settings.seed(),
                settings.seedGiven() ? "from sluice.diff.seed" : "drawn; replay with -Dsluice.diff.seed=" + settings.seed(),
                settings.sessions(), settings.steps(), settings.duration().toSeconds(), settings.skippedNames(),
                settings.targets(), settings.largeMin(), settings.largeMax(),
                sequenceEngine ? "the SEQUENCE engine" : "a recursive CTE (this server has no SEQUENCE engine)");
        sessionProxy = Proxies.sessionMode(cluster);
        splitProxy = Proxies.splitMode(cluster);
        processList = new ProcessList(cluster);
    }

    @AfterAll
    static void stop() throws SQLException {

        for (AutoCloseable closeable : new AutoCloseable[] {sessionProxy, splitProxy, processList, rowBased}) {
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
        do {
            long roundSeed = round == 0 ? settings.seed() : PlanGenerator.mix(settings.seed() + round);
            List<Plan> plans = new ArrayList<>();
            for (int session = 0; session < settings.sessions(); session++) {
                if (settings.runs(session)) {
                    plans.add(PlanGenerator.plan(roundSeed, session, settings, sequenceEngine));
                }
            }
            Map<Integer, Transcript> reference = runAll(target(Target.Kind.DIRECT), plans, round, roundSeed);
            dump(roundSeed, reference);
            for (Plan plan : plans) {
                String abort = reference.get(plan.session()).abort();
                if (abort != null) {
                    failures.add("session " + plan.session() + " of seed " + roundSeed + " stopped on the direct"
                            + " connection, so there is nothing to compare with: " + abort + "\n" + plan.listing(-1));
                }
            }
            for (Target.Kind kind : settings.targets()) {
                Map<Integer, Transcript> actual = runAll(target(kind), plans, round, roundSeed);
                dump(roundSeed, actual);
                for (Plan plan : plans) {
                    Transcript expected = reference.get(plan.session());
                    Transcript seen = actual.get(plan.session());
                    expected.firstDifference(seen).ifPresent(d -> {
                        String report = report(roundSeed, plan, kind, d, expected, seen);
                        System.out.println("DifferentialIT: " + report);
                        failures.add(report);
                    });
                }
                if (kind == Target.Kind.DIRECT) {
                    continue;
                }
                ProxyServer proxy = kind == Target.Kind.SESSION ? sessionProxy : splitProxy;
                ProxyIdle.await(proxy, 15_000).ifPresent(busy -> failures.add(
                        "the " + kind.configName() + " proxy was not back at rest 15 s after round " + roundSeed
                                + " ended: " + busy));
            }
            round++;
        } while (failures.isEmpty() && System.nanoTime() < end);
        System.out.printf("DifferentialIT: %d rounds, %d failures%n", round, failures.size());
        if (!failures.isEmpty()) {
            StringBuilder message = new StringBuilder().append(failures.size()).append(" sessions differ (base seed ")
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

    /** Every plan at once on {@code target}; sessions still running at the phase timeout are aborted. */
    private static Map<Integer, Transcript> runAll(Target target, List<Plan> plans, int round, long roundSeed)
            throws InterruptedException, SQLException {
        dropSchemas(plans);
        long start = System.nanoTime();
        long deadline = start + settings.phaseTimeout().toNanos();
        Map<Integer, SessionRun> runs = new LinkedHashMap<>();
        Map<Integer, Future<Transcript>> futures = new LinkedHashMap<>();
        ExecutorService pool = Executors.newFixedThreadPool(plans.size());
        try {
            for (Plan plan : plans) {
                SessionRun run = new SessionRun(plan, target, round, settings, processList);
                runs.put(plan.session(), run);
                futures.put(plan.session(), pool.submit(run));
            }
            Map<Integer, Transcript> transcripts = new LinkedHashMap<>();
            for (Map.Entry<Integer, Future<Transcript>> entry : futures.entrySet()) {
                SessionRun run = runs.get(entry.getKey());
                transcripts.put(entry.getKey(), await(entry.getValue(), run, deadline));
            }
            long steps = transcripts.values().stream().mapToLong(t -> t.entries().size()).sum();
            System.out.printf("DifferentialIT: seed %d on %s: %d sessions, %d steps in %.1f s%n", roundSeed,
                    target.name(), plans.size(), steps, (System.nanoTime() - start) / 1e9);
            return transcripts;
        } finally {
            pool.shutdownNow();
        }
    }

    private static Transcript await(Future<Transcript> future, SessionRun run, long deadline) throws InterruptedException {
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

    /** With {@code -Dsluice.diff.dump=DIR}, every transcript as text, one file per session and target. */
    private static void dump(long roundSeed, Map<Integer, Transcript> transcripts) throws java.io.IOException {
        String dir = System.getProperty(DiffSettings.PREFIX + "dump", "");
        if (dir.isBlank()) {
            return;
        }
        java.nio.file.Files.createDirectories(java.nio.file.Path.of(dir));
        for (Map.Entry<Integer, Transcript> e : transcripts.entrySet()) {
            Transcript t = e.getValue();
            StringBuilder text = new StringBuilder();
            for (Transcript.Entry entry : t.entries()) {
                text.append("step ").append(entry.step()).append(" (").append(entry.millis()).append(" ms)\n");
                entry.observed().forEach(o -> text.append("  ").append(o).append('\n'));
            }
            text.append("end: ").append(t.abort() == null ? "all steps ran" : t.abort()).append('\n');
            java.nio.file.Files.writeString(java.nio.file.Path.of(dir, roundSeed + "-" + e.getKey() + "-"
                    + t.target().configName() + ".txt"), text);
        }
    }

    /** The observations of the step that differ, side by side, at most a few. */
    private static String differingObservations(Transcript.Difference d, String name) {
        StringBuilder text = new StringBuilder();
        int shown = 0;
        for (int i = 0; i < Math.max(d.expected().size(), d.actual().size()) && shown < 3; i++) {
            String expected = i < d.expected().size() ? d.expected().get(i) : "(nothing)";
            String actual = i < d.actual().size() ? d.actual().get(i) : "(nothing)";
            if (!expected.equals(actual)) {
                text.append("    observation ").append(i).append(":\n      direct: ").append(cut(expected))
                        .append("\n      ").append(name).append(": ").append(cut(actual)).append('\n');
                shown++;
            }
        }
        return text.toString();
    }

    private static String cut(String text) {
        return text.length() <= 1500 ? text : text.substring(0, 1500) + "...";
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

    private static String report(long roundSeed, Plan plan, Target.Kind kind, Transcript.Difference d,
                                 Transcript expected, Transcript seen) {
        String step = d.step() < plan.steps().size() ? plan.steps().get(d.step()).toString() : "-";
        return "session " + plan.session() + " on " + kind.configName() + ", step " + d.step() + " of "
                + plan.steps().size() + ": " + (step.length() > 160 ? step.substring(0, 160) + "..." : step)
                + " (seed " + roundSeed + "): " + d.why() + "\n"
                + "  replay: " + settings.replay(roundSeed, plan.session(), kind) + "\n"
                + "  step " + d.step() + ": " + step + "\n"
                + "    took " + expected.millis(d.step()) + " ms direct, " + seen.millis(d.step()) + " ms on "
                + kind.configName() + "\n" + differingObservations(d, kind.configName())
                + "  the session's steps:\n" + plan.listing(d.step() + 1);
    }
}
