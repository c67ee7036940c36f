package dev.sluice.testkit;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * What {@link MariaDbCluster#start(ClusterSpec)} builds: one primary and {@code replicas} replicas.
 *
 * @param replicas         number of replicas, 0 to {@value #MAX_REPLICAS}
 * @param maxConnections   max_connections of every server; the server refuses to start when the
 *                         open-file limit cannot cover it
 * @param extraServerArgs  further mariadbd options ({@code --name=value}), appended last so they win
 * @param createTestSchema whether to create {@link TestUsers#TEST_SCHEMA} on the primary
 * @param startTimeout     how long one server may take to report "ready for connections"
 */
public record ClusterSpec(
        int replicas,
        int maxConnections,
        List<String> extraServerArgs,
        boolean createTestSchema,
        Duration startTimeout) {

    public static final int MAX_REPLICAS = 8;
    public static final int DEFAULT_REPLICAS = 2;
    public static final int DEFAULT_MAX_CONNECTIONS = 2000;
    public static final Duration DEFAULT_START_TIMEOUT = Duration.ofSeconds(60);

    public ClusterSpec {
        if (replicas < 0 || replicas > MAX_REPLICAS) {
            throw new IllegalArgumentException(
                    "replicas: " + replicas + " (expected: 0 to " + MAX_REPLICAS + ")");
        }
        if (maxConnections < 10 || maxConnections > 100_000) {
            throw new IllegalArgumentException(
                    "maxConnections: " + maxConnections + " (expected: 10 to 100000)");
        }
        Objects.requireNonNull(extraServerArgs, "extraServerArgs");
        for (int i = 0; i < extraServerArgs.size(); i++) {
            String arg = extraServerArgs.get(i);
            if (arg == null || !arg.startsWith("--") || arg.length() < 3) {
                throw new IllegalArgumentException("extraServerArgs[" + i + "]: " + quoted(arg)
                        + " (expected: a mariadbd option such as --innodb-buffer-pool-size=64M)");
            }
        }
        extraServerArgs = List.copyOf(extraServerArgs);
        Objects.requireNonNull(startTimeout, "startTimeout");
        if (startTimeout.isNegative() || startTimeout.isZero()) {
            throw new IllegalArgumentException("startTimeout: " + startTimeout + " (expected: > 0)");
        }
    }

    /** A primary and two replicas, max_connections 2000, with {@link TestUsers#TEST_SCHEMA}. */
    public static ClusterSpec defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    public Builder toBuilder() {
        return new Builder()
                .replicas(replicas)
                .maxConnections(maxConnections)
                .extraServerArgs(extraServerArgs)
                .createTestSchema(createTestSchema)
                .startTimeout(startTimeout);
    }

    private static String quoted(String s) {
        return s == null ? "null" : "'" + s + "'";
    }

    /** Fluent builder; every setting starts at its documented default. */
    public static final class Builder {
        private int replicas = DEFAULT_REPLICAS;
        private int maxConnections = DEFAULT_MAX_CONNECTIONS;
        private final List<String> extraServerArgs = new ArrayList<>();
        private boolean createTestSchema = true;
        private Duration startTimeout = DEFAULT_START_TIMEOUT;

        private Builder() {
        }

        public Builder replicas(int replicas) {
            this.replicas = replicas;
            return this;
        }

        public Builder maxConnections(int maxConnections) {
            this.maxConnections = maxConnections;
            return this;
        }

        /** Adds mariadbd options, e.g. {@code "--innodb-buffer-pool-size=64M"}. */
        public Builder extraServerArgs(String... args) {
            return extraServerArgs(Arrays.asList(args));
        }

        public Builder extraServerArgs(List<String> args) {
            extraServerArgs.addAll(args);
            return this;
        }

        public Builder createTestSchema(boolean createTestSchema) {
            this.createTestSchema = createTestSchema;
            return this;
        }

        public Builder startTimeout(Duration startTimeout) {
            this.startTimeout = startTimeout;
            return this;
        }

        public ClusterSpec build() {
            return new ClusterSpec(replicas, maxConnections, extraServerArgs, createTestSchema, startTimeout);
        }
    }
}
