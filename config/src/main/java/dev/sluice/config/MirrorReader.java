package dev.sluice.config;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** Reads the {@code mirror} section. */
final class MirrorReader {

    static final List<String> KEYS = List.of("enabled", "address", "user", "password", "statements", "queue_size",
            "queue_bytes", "connections", "timeout", "sample");

    private final Problems problems;

    MirrorReader(Problems problems) {
        this.problems = problems;
    }

    MirrorConfig read(YamlMapping mirror) {
        int before = problems.count();
        MirrorConfig defaults = MirrorConfig.off();
        Optional<HostPort> address = mirror.scalar("address", "host:port").flatMap(v -> v.convert(Scalars::backendAddress));
        boolean enabled = mirror.scalar("enabled", "true or false").flatMap(YamlScalar::bool)
                .orElse(mirror.entry("address") != null);
        Optional<String> user = mirror.scalar("user", "a user name").flatMap(YamlScalar::name);
        Optional<String> password = mirror.scalar("password", "a password; write \"\" for an empty one")
                .map(YamlScalar::text);
        MirrorConfig.Statements statements = mirror.scalar("statements", "reads or all")
                .flatMap(v -> v.enumValue(MirrorConfig.Statements.class)).orElse(defaults.statements());
        int queueSize = mirror.scalar("queue_size", Scalars.integerExpected(1, MirrorConfig.MAX_QUEUE_SIZE))
                .flatMap(v -> v.integer(1, MirrorConfig.MAX_QUEUE_SIZE)).orElse(defaults.queueSize());
        int queueBytes = mirror.scalar("queue_bytes", ByteSizes.EXPECTED)
                .flatMap(v -> v.byteSize(MirrorConfig.MIN_QUEUE_BYTES, MirrorConfig.MAX_QUEUE_BYTES))
                .orElse(defaults.queueBytes());
        int connections = mirror.scalar("connections", Scalars.integerExpected(1, MirrorConfig.MAX_CONNECTIONS))
                .flatMap(v -> v.integer(1, MirrorConfig.MAX_CONNECTIONS)).orElse(defaults.connections());
        Duration timeout = mirror.scalar("timeout", Durations.EXPECTED)
                .flatMap(v -> v.duration(Duration.ofMillis(1), MirrorConfig.MAX_TIMEOUT)).orElse(defaults.timeout());
        double sample = mirror.scalar("sample", "a fraction from " + MirrorConfig.MIN_SAMPLE + " to 1")
                .flatMap(v -> v.convert(MirrorReader::fraction)).orElse(defaults.sample());
        if (enabled && address.isEmpty() && problems.count() == before) {
            mirror.missing("address", "the shadow's host:port when mirror is enabled");
        }
        return mirror.build(before, () -> new MirrorConfig(enabled, address, user, password, statements, queueSize,
                queueBytes, connections, timeout, sample), defaults);
    }

    private static double fraction(String text) {
        double value;
        try {
            value = Double.parseDouble(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(Messages.quote(text) + " is not a number (expected: a fraction from "
                    + MirrorConfig.MIN_SAMPLE + " to 1, e.g. 0.1)");
        }
        if (!(value >= MirrorConfig.MIN_SAMPLE && value <= 1)) {
            throw new IllegalArgumentException(text + " is out of range (expected: a fraction from "
                    + MirrorConfig.MIN_SAMPLE + " to 1)");
        }
        return value;
    }
}
