package dev.sluice.proxy.differential;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;

/**
 * Draws a session's plan from a seed. A rough model of the session (is its schema there, is a
 * transaction open) steers the draw toward sequences that do something, but any sequence is valid:
 * an error is an answer like any other, and it must be the same on every target. Nothing here
 * depends on the run, so the same seed and session number give the same plan.
 */
final class PlanGenerator {

    private final Random random;
    private final int session;
    private final String schema;
    private final DiffSettings settings;
    private final SqlVocabulary sql;
    private final List<Step> steps = new ArrayList<>();
    private final boolean multi;
    private final boolean cursors;
    private final boolean serverPrepared;
    private final String options;
    private boolean schemaExists = true;
    private boolean transaction;

    private record Choice(double weight, Feature feature, Supplier<Step> step) {
    }

    private PlanGenerator(long roundSeed, int session, DiffSettings settings, boolean sequenceEngine) {
        this.random = new Random(mix(roundSeed + 0x9E3779B97F4A7C15L * (session + 1)));
        this.session = session;
        this.schema = "diff_" + session;
        this.settings = settings;
        this.sql = new SqlVocabulary(random, session, schema, sequenceEngine, steps::size,
                settings.covers(Feature.LAST_STATEMENT));
        this.serverPrepared = !settings.covers(Feature.PREPARED) || random.nextDouble() < 0.85;
        this.multi = settings.covers(Feature.MULTI_STATEMENTS) && random.nextDouble() < 0.8;
        this.cursors = settings.covers(Feature.CURSORS) && serverPrepared && random.nextDouble() < 0.5;
        List<String> o = new ArrayList<>();
        o.add("useServerPrepStmts=" + serverPrepared);
        o.add("allowMultiQueries=" + multi);
        o.add("useCursorFetch=" + cursors);
        if (random.nextDouble() < 0.3) {
            o.add("cachePrepStmts=true");
        }
        if (random.nextDouble() < 0.25) {
            o.add("useLocalSessionState=true");
        }
        if (random.nextDouble() < 0.15) {
            o.add("characterEncoding=ISO-8859-1");
        }
        this.options = String.join("&", o);
    }

    /** The finalizer of SplittableRandom (Stafford's mix13): nearby seeds give unrelated plans. */
    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    static Plan plan(long roundSeed, int session, DiffSettings settings, boolean sequenceEngine) {
        PlanGenerator generator = new PlanGenerator(roundSeed, session, settings, sequenceEngine);
        generator.steps.add(new Step.Sql(generator.sql.setup()));
        while (generator.steps.size() < settings.steps()) {
            generator.steps.add(generator.next());
        }
        return new Plan(session, generator.options, List.copyOf(generator.steps));
    }

    private Step next() {
        if (!schemaExists && settings.covers(Feature.DROP_CREATE_SCHEMA) && random.nextDouble() < 0.5) {
            schemaExists = true;
            return new Step.Sql(sql.rebuild());
        }
        List<Choice> choices = List.of(
                new Choice(9, Feature.SESSION_VARIABLES, () -> withReader(sql.setVariable(), 0.5)),
                new Choice(5, Feature.USER_VARIABLES, () -> new Step.Sql(sql.userVariable())),
                new Choice(10, null, () -> new Step.Sql(sql.select())),
                new Choice(8, null, () -> new Step.Sql(sql.write())),
                new Choice(4, Feature.ERRORS, () -> new Step.Sql(sql.error())),
                new Choice(2, Feature.USE, this::use),
                new Choice(1.5, Feature.DROP_CREATE_SCHEMA, this::dropOrCreate),
                new Choice(6, Feature.TRANSACTIONS, this::transaction),
                new Choice(4, Feature.TEMPORARY_TABLES, () -> new Step.Sql(sql.temporary())),
                new Choice(6, Feature.PREPARED, this::prepared),
                // A statement prepared in a schema that was dropped since is prepared again without
                // one in split mode: error 1046, not the server's 1146 (docs/configuration.md).
                new Choice(2, Feature.PREPARED, () -> schemaExists ? new Step.Reuse(1 + random.nextInt(4))
                        : new Step.Sql(sql.select())),
                new Choice(3, Feature.LOCKS, () -> new Step.Sql(sql.lock())),
                new Choice(1.6, Feature.LARGE_RESULTS, this::large),
                new Choice(3, Feature.MULTI_STATEMENTS, this::multiStatement),
                new Choice(3, Feature.CALL, this::call),
                new Choice(1.2, Feature.RESET_CONNECTION, this::reset),
                new Choice(1.2, Feature.CHANGE_USER, this::changeUser),
                new Choice(0.8, Feature.KILL, this::kill),
                new Choice(0.6, Feature.CONNECTION_ID, Step.ConnectionId::new));
        double total = 0;
        for (Choice choice : choices) {
            total += covered(choice) ? weight(choice) : 0;
        }
        double draw = random.nextDouble() * total;
        for (Choice choice : choices) {
            if (covered(choice)) {
                draw -= weight(choice);
                if (draw < 0) {
                    return choice.step().get();
                }
            }
        }
        return new Step.Sql(sql.select());
    }

    private double weight(Choice choice) {
        return choice.weight() * settings.weight(choice.feature());
    }

    private boolean covered(Choice choice) {
        return choice.feature() == null || settings.covers(choice.feature());
    }

    /** A SET, sometimes followed by a statement whose answer it changes. */
    private Step withReader(List<String> set, double chance) {
        List<String> statements = new ArrayList<>(set);
        if (set.getFirst().matches("(?i)SET (SESSION )?autocommit = 0")) {
            transaction = true;
        }
        if (random.nextDouble() < chance) {
            statements.addAll(sql.select());
        }
        return new Step.Sql(statements);
    }

    private Step use() {
        return switch (random.nextInt(5)) {
            case 0 -> new Step.Sql("USE sluice_test");
            case 1 -> new Step.Sql("USE no_such_db");
            case 2 -> new Step.Api(Step.ApiCall.SET_CATALOG, random.nextBoolean() ? schema : "sluice_test");
            default -> new Step.Sql("USE " + schema);
        };
    }

    private Step dropOrCreate() {
        if (!schemaExists) {
            schemaExists = true;
            return new Step.Sql(sql.rebuild());
        }
        schemaExists = false;
        transaction = false;
        return switch (random.nextInt(3)) {
            case 0 -> new Step.Sql("DROP DATABASE " + schema, "SELECT DATABASE()");
            case 1 -> new Step.Sql("DROP DATABASE IF EXISTS " + schema, "CREATE DATABASE " + schema);
            default -> new Step.Sql("DROP SCHEMA " + schema);
        };
    }

    private Step transaction() {
        if (!transaction) {
            transaction = true;
            return switch (random.nextInt(9)) {
                case 0 -> new Step.Sql("BEGIN");
                case 1 -> new Step.Sql("START TRANSACTION READ ONLY");
                case 2 -> new Step.Sql("START TRANSACTION WITH CONSISTENT SNAPSHOT");
                case 3 -> new Step.Api(Step.ApiCall.AUTOCOMMIT_OFF, "");
                case 4 -> new Step.Sql("SET autocommit = 0");
                case 5 -> new Step.Api(random.nextBoolean() ? Step.ApiCall.ISOLATION_READ_COMMITTED
                        : Step.ApiCall.ISOLATION_SERIALIZABLE, "");
                case 6 -> new Step.Api(random.nextBoolean() ? Step.ApiCall.READ_ONLY_ON : Step.ApiCall.READ_ONLY_OFF, "");
                default -> new Step.Sql("START TRANSACTION");
            };
        }
        return switch (random.nextInt(10)) {
            case 0 -> new Step.Sql("SAVEPOINT sp1");
            case 1 -> new Step.Sql("ROLLBACK TO SAVEPOINT sp1");
            case 2 -> new Step.Sql("RELEASE SAVEPOINT sp1");
            case 3 -> new Step.Api(Step.ApiCall.COMMIT, "");
            case 4 -> new Step.Api(Step.ApiCall.ROLLBACK, "");
            case 5 -> new Step.Sql("COMMIT AND CHAIN");
            case 6 -> ended(new Step.Api(Step.ApiCall.AUTOCOMMIT_ON, ""));
            case 7 -> ended(new Step.Sql("SET autocommit = 1"));
            case 8 -> ended(new Step.Sql("ROLLBACK"));
            default -> ended(new Step.Sql("COMMIT"));
        };
    }

    private Step ended(Step step) {
        transaction = false;
        return step;
    }

    private Step prepared() {
        int k = 1 + random.nextInt(6);
        int fetch = settings.covers(Feature.CURSORS) && random.nextBoolean() ? 1 + random.nextInt(8) : 0;
        boolean interleave = random.nextBoolean();
        return switch (random.nextInt(9)) {
            case 0 -> new Step.Prepared("SELECT id, k, v FROM t WHERE k >= ? ORDER BY id",
                    List.of(List.of(1), List.of(3), List.of(k)), fetch, interleave);
            case 1 -> new Step.Prepared("INSERT INTO t (k, v, d) VALUES (?, ?, ?)",
                    List.of(List.of(sql.newKey(), sql.tagText(), "1.25"), List.of(1, "dup", "0")), 0, false);
            case 2 -> new Step.Prepared("SELECT ?, ? + 1, CONCAT(?, 'x')", List.of(List.of("a", 5, "b")), 0, false);
            case 3 -> new Step.Prepared(sql.rows(60, "seq, CONCAT('r', seq)", "seq > ?"),
                    List.of(List.of(0), List.of(30)), fetch, interleave);
            case 4 -> new Step.Prepared("SELECT @@sql_mode, DATABASE(), @u1, @@time_zone", List.of(List.of()), 0, false);
            case 5 -> new Step.Prepared("UPDATE t SET v = ? WHERE k = ?", List.of(List.of(sql.tagText(), k)), 0, false);
            case 6 -> new Step.Sql("PREPARE ps1 FROM 'SELECT k, v FROM t WHERE k > ? ORDER BY k'");
            case 7 -> new Step.Sql("SET @p = " + k, "EXECUTE ps1 USING @p");
            default -> new Step.Sql("DEALLOCATE PREPARE ps1");
        };
    }

    private Step large() {
        int rows = (int) Math.round(Math.exp(Math.log(settings.largeMin())
                + random.nextDouble() * (Math.log(settings.largeMax()) - Math.log(settings.largeMin()))));
        Step.LargeMode mode = Step.LargeMode.values()[random.nextInt(Step.LargeMode.values().length)];
        if (mode == Step.LargeMode.MULTI && !multi || mode == Step.LargeMode.CURSOR && !cursors) {
            mode = Step.LargeMode.STREAM;
        }
        boolean buffered = mode == Step.LargeMode.BUFFERED || mode == Step.LargeMode.MULTI;
        if (buffered) {
            rows = Math.min(rows, 200_000);
        }
        List<Step.Pause> pauses = new ArrayList<>();
        if (settings.covers(Feature.SLOW_READERS) && !buffered) {
            int count = 1 + random.nextInt(3);
            int at = 0;
            for (int i = 0; i < count && at < rows - 1; i++) {
                at += 1 + random.nextInt(Math.max(1, (rows - at) / 2));
                pauses.add(new Step.Pause(at, 50 + random.nextInt(350)));
            }
        }
        int closeAt = random.nextDouble() < 0.15 ? 1 + random.nextInt(rows - 1) : -1;
        int fetchSize = mode == Step.LargeMode.CURSOR ? List.of(100, 1000, 5000).get(random.nextInt(3)) : 0;
        return new Step.Large(sql.rows(rows, "seq, CONCAT('row-', seq) AS label, seq % 7 AS m", null), rows, mode,
                fetchSize, List.copyOf(pauses), closeAt);
    }

    private Step multiStatement() {
        List<Supplier<List<String>>> parts = new ArrayList<>(List.of(sql::select, sql::write, sql::setVariable));
        if (settings.covers(Feature.USER_VARIABLES)) {
            parts.add(sql::userVariable);
        }
        if (settings.covers(Feature.ERRORS)) {
            parts.add(sql::error);
        }
        int count = 2 + random.nextInt(3);
        List<String> statements = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            statements.add(parts.get(random.nextInt(parts.size())).get().getFirst());
        }
        return new Step.Sql(String.join("; ", statements));
    }

    private Step call() {
        int value = 1000 + session * 100 + steps.size() % 100;
        return switch (random.nextInt(4)) {
            case 0 -> new Step.Callable(value);
            case 1 -> new Step.Sql("CALL p_rows()");
            case 2 -> new Step.Sql("CALL p_tenant(" + value + ")", "SELECT @tenant, @@group_concat_max_len");
            default -> new Step.Sql("CALL p_tenant(" + value + ")");
        };
    }

    private Step reset() {
        transaction = false;
        return new Step.Reset();
    }

    private Step changeUser() {
        transaction = false;
        return new Step.ChangeUser(random.nextDouble() < 0.65);
    }

    private Step kill() {
        return random.nextDouble() < 0.7 ? new Step.Kill(Step.KillKind.SECOND_CONNECTION, 6)
                : new Step.Kill(Step.KillKind.QUERY_TIMEOUT, 8);
    }
}
