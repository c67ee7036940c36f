package dev.sluice.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The proxy's packages depend on each other in one direction only (the backend never knows split
 * mode, the SQL reader never knows the observers, nothing knows the server that puts them all
 * together), read from the sources: every mention of {@code dev.sluice.proxy.<package>} or of a
 * class of the root package, imports and qualified names alike.
 */
class PackageDependenciesTest {

    private static final Path SOURCES = Path.of("src/main/java/dev/sluice/proxy");
    private static final Pattern MENTION = Pattern.compile("dev\\.sluice\\.proxy\\.(?:([a-z]+)\\.|[A-Z])");
    /** How the root package (dev.sluice.proxy itself: ProxyServer and its transport) is named here. */
    private static final String ROOT = "(root)";

    @Test
    void subPackagesFormNoCycle() throws IOException {
        Map<String, Set<String>> uses = dependencies();
        assertThat(uses).as("packages found under %s", SOURCES).containsKeys(ROOT, "backend", "split", "frontend", "sql");
        assertThat(uses.get("backend")).as("what backend uses").doesNotContain("split", "frontend", "kill", ROOT);
        assertThat(uses.get(ROOT)).as("the root package puts the others together").contains("runtime", "frontend");
        assertThat(cycles(uses)).as("dependency cycles between packages").isEmpty();
    }

    private static Map<String, Set<String>> dependencies() throws IOException {
        Map<String, Set<String>> uses = new TreeMap<>();
        try (Stream<Path> files = Files.walk(SOURCES)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                Path folder = SOURCES.relativize(file.getParent());
                String from = folder.toString().isEmpty() ? ROOT : folder.toString().replace('/', '.');
                Set<String> targets = uses.computeIfAbsent(from, k -> new TreeSet<>());
                Matcher m = MENTION.matcher(Files.readString(file));
                while (m.find()) {
                    String to = m.group(1) == null ? ROOT : m.group(1);
                    if (!to.equals(from)) {
                        targets.add(to);
                    }
                }
            }
        }
        return uses;
    }

    /** Each cycle found by a depth-first walk, as the path that closes it. */
    private static List<String> cycles(Map<String, Set<String>> uses) {
        List<String> found = new ArrayList<>();
        Set<String> done = new TreeSet<>();
        for (String start : uses.keySet()) {
            walk(start, uses, new ArrayDeque<>(), done, found);
        }
        return found;
    }

    private static void walk(String at, Map<String, Set<String>> uses, Deque<String> path, Set<String> done,
                             List<String> found) {
        if (path.contains(at)) {
            List<String> cycle = new ArrayList<>(path).reversed();
            found.add(String.join(" -> ", cycle.subList(cycle.indexOf(at), cycle.size())) + " -> " + at);
            return;
        }
        if (!done.add(at)) {
            return;
        }
        path.push(at);
        for (String next : uses.getOrDefault(at, Set.of())) {
            walk(next, uses, path, done, found);
        }
        path.pop();
    }
}
