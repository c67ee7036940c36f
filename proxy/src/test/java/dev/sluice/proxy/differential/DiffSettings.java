package dev.sluice.proxy.differential;

import java.time.Duration;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * What one run of {@link DifferentialIT} does, from {@code sluice.diff.*} system properties, so the
 * CI run and the bench run (bench/differential.sh) are the same test with different budgets.
 *
 * @param seed        base seed; every session's plan derives from it and the session's number
 * @param seedGiven   whether {@code sluice.diff.seed} was set (else the seed was drawn and is printed)
 * @param sessions    sessions that run at once, each with its own plan
 * @param steps       steps per session plan
 * @param duration    rounds (each with a seed derived from the base seed) start while this much time
 *                    is left; zero means exactly one round
 * @param phaseTimeout how long the sessions of one round may take on one target before the ones
 *                    still running are aborted and reported as hung
 * @param stepTimeout Connector/J socketTimeout: a read that waits longer fails the step
 * @param shrink      time spent, after the first failure, shortening failing plans to the fewest
 *                    steps that still differ when the session runs alone (0: none)
 * @param largeMin    fewest rows of a large result
 * @param largeMax    most rows of a large result
 * @param skipped     features left out of the plans ({@code sluice.diff.skip=kill,connection_id})
 * @param focus       features drawn ten times as often ({@code sluice.diff.focus=kill}), to look hard at one
 * @param only        session numbers to run (replay of one failing session), empty for all
 * @param targets     the proxy modes compared with the direct connection ({@code direct}: a second direct
 *                    run, which checks that the plans are deterministic)
 * @param wire        sessions speak through {@link WireClient} ({@code sluice.diff.client=wire}), as the
 *                    mariadb client library does, instead of Connector/J; the steps only JDBC takes
 *                    are then not drawn
 * @param alsoWire    each round's sessions run with Connector/J, then again with the wire client
 *                    ({@code sluice.diff.client=both})
 */
record DiffSettings(long seed, boolean seedGiven, int sessions, int steps, Duration duration, Duration phaseTimeout,
                    Duration stepTimeout, Duration shrink, int largeMin, int largeMax, Set<Feature> skipped, Set<Feature> focus, Set<Integer> only,
                    Set<Target.Kind> targets, boolean wire, boolean alsoWire) {

    /** What only Connector/J's sessions do (server-side prepared statements, its change of user and kills). */
    private static final Set<Feature> JDBC_ONLY = EnumSet.of(Feature.PREPARED, Feature.CURSORS, Feature.KILL,
            Feature.CHANGE_USER);

    static final String PREFIX = "sluice.diff.";

    static DiffSettings fromSystemProperties() {
        String seedText = property("seed", "");
        boolean seedGiven = !seedText.isBlank();
        long seed = seedGiven ? Long.parseLong(seedText.trim()) : ThreadLocalRandom.current().nextLong();
        int sessions = intProperty("sessions", 6, 1, 500);
        int steps = intProperty("steps", 40, 1, 100_000);
        Duration duration = Duration.ofSeconds(intProperty("duration", 0, 0, 86_400));
        Duration phaseTimeout = Duration.ofSeconds(intProperty("phaseTimeout", 120, 10, 86_400));
        Duration stepTimeout = Duration.ofSeconds(intProperty("stepTimeout", 20, 2, 3_600));
        Duration shrink = Duration.ofSeconds(intProperty("shrink", 60, 0, 86_400));
        int largeMin = intProperty("largeMin", 100_000, 1, 10_000_000);
        int largeMax = intProperty("largeMax", 1_000_000, largeMin, 10_000_000);
        Set<Feature> skipped = EnumSet.noneOf(Feature.class);
        for (String name : list(property("skip", ""))) {
            skipped.add(Feature.named(name));
        }
        Set<Feature> focus = EnumSet.noneOf(Feature.class);
        for (String name : list(property("focus", ""))) {
            focus.add(Feature.named(name));
        }
        Set<Integer> only = new LinkedHashSet<>();
        for (String n : list(property("only", ""))) {
            only.add(Integer.parseInt(n));
        }
        Set<Target.Kind> targets = EnumSet.noneOf(Target.Kind.class);
        for (String name : list(property("targets", "session,split"))) {
            targets.add(Target.Kind.named(name));
        }
        String client = property("client", "jdbc").trim();
        if (!List.of("jdbc", "wire", "both").contains(client)) {
            throw new IllegalArgumentException(PREFIX + "client: unknown client '" + client
                    + "' (expected: jdbc, wire, or both)");
        }
        DiffSettings jdbc = new DiffSettings(seed, seedGiven, sessions, steps, duration, phaseTimeout, stepTimeout, shrink,
                largeMin, largeMax, skipped, focus, only, targets, false, client.equals("both"));
        return client.equals("wire") ? jdbc.withWire() : jdbc;
    }

    /** The settings of each client a round runs its sessions with. */
    List<DiffSettings> perClient() {
        return alsoWire ? List.of(this, withWire()) : List.of(this);
    }

    private DiffSettings withWire() {
        Set<Feature> wireSkipped = EnumSet.copyOf(JDBC_ONLY);
        wireSkipped.addAll(skipped);
        return new DiffSettings(seed, seedGiven, sessions, steps, duration, phaseTimeout, stepTimeout, shrink, largeMin,
                largeMax, wireSkipped, focus, only, targets, true, false);
    }

    String clientName() {
        return wire ? "the wire client" : alsoWire ? "Connector/J, then the wire client" : "Connector/J";
    }

    boolean runs(int session) {
        return only.isEmpty() || only.contains(session);
    }

    boolean covers(Feature feature) {
        return !skipped.contains(feature);
    }

    /** How much more often than usual plans draw steps of {@code feature}. */
    double weight(Feature feature) {
        return feature != null && focus.contains(feature) ? 10 : 1;
    }

    /**
     * The properties that replay {@code session} of a round alone on {@code target}, up to step
     * {@code last}: a plan's first steps do not depend on how many follow.
     */
    String replay(long roundSeed, int session, Target.Kind target, int last) {
        return "-D" + PREFIX + "seed=" + roundSeed + (wire ? " -D" + PREFIX + "client=wire" : "")
                + " -D" + PREFIX + "sessions=" + sessions + " -D" + PREFIX
                + "steps=" + (last + 1) + " -D" + PREFIX + "only=" + session + " -D" + PREFIX + "targets="
                + target.configName() + (skipped.isEmpty() ? "" : " -D" + PREFIX + "skip=" + skippedNames())
                + (focus.isEmpty() ? "" : " -D" + PREFIX + "focus="
                        + String.join(",", focus.stream().map(Feature::configName).toList()))
                + (largeMin == 100_000 && largeMax == 1_000_000 ? ""
                        : " -D" + PREFIX + "largeMin=" + largeMin + " -D" + PREFIX + "largeMax=" + largeMax);
    }

    String skippedNames() {
        return String.join(",", skipped.stream().map(Feature::configName).toList());
    }

    private static String property(String name, String fallback) {
        return System.getProperty(PREFIX + name, fallback);
    }

    private static int intProperty(String name, int fallback, int min, int max) {
        String text = property(name, "");
        if (text.isBlank()) {
            return fallback;
        }
        int value = Integer.parseInt(text.trim());
        if (value < min || value > max) {
            throw new IllegalArgumentException(PREFIX + name + ": " + value + " (expected: " + min + " to " + max + ")");
        }
        return value;
    }

    private static List<String> list(String text) {
        return java.util.Arrays.stream(text.split(",")).map(s -> s.trim().toLowerCase(Locale.ROOT))
                .filter(s -> !s.isEmpty()).toList();
    }
}
