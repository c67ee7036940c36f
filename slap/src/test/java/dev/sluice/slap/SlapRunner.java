package dev.sluice.slap;

import dev.sluice.testkit.MariaDbServer;
import dev.sluice.testkit.TestUsers;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Runs the slap command against a test server and reads the server's counters around it. */
final class SlapRunner {

    private SlapRunner() {
    }

    /** The slap command line with the server's address and the test user in front of {@code args}. */
    static SlapCommandTest.Run slap(MariaDbServer server, String... args) {
        List<String> all = new ArrayList<>(List.of("-h", server.host(), "-P", Integer.toString(server.port()),
                "-u", TestUsers.APP_USER, "--password=" + TestUsers.APP_PASSWORD));
        all.addAll(Arrays.asList(args));
        return SlapCommandTest.slap(all.toArray(String[]::new));
    }

    /**
     * Connector/J reads the server's variables with a SELECT on the first connection of this JVM
     * to a URL and caches them; after one run, slap sends only mysqlslap's own statements, so
     * tests that count them warm up first.
     */
    static void warmUp(MariaDbServer server) {
        SlapCommandTest.Run run = slap(server, "--query=DO 1", "--create-schema=" + TestUsers.TEST_SCHEMA);
        if (run.exit() != 0) {
            throw new IllegalStateException("warm-up run failed: " + run.err());
        }
    }

    /** How much each of {@code variables} grew while {@code action} ran. */
    static Map<String, Long> deltas(MariaDbServer server, Runnable action, String... variables) {
        Map<String, Long> before = new HashMap<>();
        for (String v : variables) {
            before.put(v, server.globalStatus(v));
        }
        action.run();
        Map<String, Long> grown = new HashMap<>();
        for (String v : variables) {
            grown.put(v, server.globalStatus(v) - before.get(v));
        }
        return grown;
    }
}
