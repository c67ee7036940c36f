package dev.sluice.proxy.admin;

import dev.sluice.proxy.runtime.ProxyRuntime;
import dev.sluice.proxy.backend.Backend;
import dev.sluice.proxy.backend.BackendPool;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * Runs the admin statements:
 * <pre>
 * SHOW BACKENDS | SHOW TABLES | SHOW PROCESSLIST
 * SELECT cols FROM backends|pools|digests|sessions|global [WHERE ...] [ORDER BY ...] [LIMIT ...]
 * SET BACKEND name STATE [=] ONLINE|DRAINING|OFFLINE      SET BACKEND name WEIGHT [=] n
 * UPDATE backends SET state = '...', weight = n [WHERE ...]
 * RESET STATS | RELOAD CONFIG | HELP
 * SET CAPTURE [=] ON|OFF | SHOW CAPTURE | SHOW MIRROR
 * </pre>
 * plus what the mariadb client sends by itself ({@code select @@version_comment limit 1}, SET
 * NAMES, USE). Call off the proxy's event loops.
 */
final class AdminCommands {

    static final String VERSION_COMMENT = "Sluice admin";
    private static final List<String> HELP = List.of(
            "SHOW BACKENDS", "SHOW TABLES", "SHOW PROCESSLIST",
            "SELECT cols|* FROM backends|pools|digests|sessions|global|mirror [WHERE col op value [AND ...]] [ORDER BY col [DESC]] [LIMIT n]",
            "SET BACKEND name STATE ONLINE|DRAINING|OFFLINE", "SET BACKEND name WEIGHT n",
            "UPDATE backends SET state = 'OFFLINE', weight = 2 WHERE name = 'replica1'",
            "RESET STATS", "RELOAD CONFIG", "SET CAPTURE ON|OFF", "SHOW CAPTURE", "SHOW MIRROR");

    private final ProxyRuntime runtime;
    private final Tables tables;
    private final Runnable resetStats;
    private final Supplier<String> reload;

    /** @param reload reloads the config and says what changed; throws AdminSqlException when it cannot */
    AdminCommands(ProxyRuntime runtime, Tables tables, Runnable resetStats, Supplier<String> reload) {
        this.runtime = runtime;
        this.tables = tables;
        this.resetStats = resetStats;
        this.reload = reload;
    }

    AdminResult execute(String sql, String user) {
        AdminTokens tokens = new AdminTokens(sql);
        if (tokens.atEnd()) {
            throw new AdminSqlException(1065, "42000", "Query was empty");
        }
        AdminTokens.Token first = tokens.take();
        String verb = first.text().toUpperCase(Locale.ROOT);
        return switch (verb) {
            case "SELECT" -> select(tokens, user);
            case "SHOW" -> show(tokens);
            case "SET" -> set(tokens);
            case "UPDATE" -> update(tokens);
            case "RESET" -> {
                tokens.expect("STATS");
                tokens.expectEnd();
                resetStats.run();
                yield new AdminResult.Ok(0, "stats reset");
            }
            case "RELOAD" -> {
                tokens.expect("CONFIG");
                tokens.expectEnd();
                yield new AdminResult.Ok(0, reload.get());
            }
            case "HELP" -> rows("help", "statement", HELP);
            case "USE", "BEGIN", "COMMIT", "ROLLBACK" -> new AdminResult.Ok(0, "");
            default -> throw AdminSqlException.syntax("unknown statement " + first);
        };
    }

    private AdminResult select(AdminTokens tokens, String user) {
        if (looksLikeTableQuery(sqlAfterSelect(tokens))) {
            TableQuery query = TableQuery.parseAfterSelect(tokens);
            Table table = tables.table(query.table());
            if (table == null) {
                throw new AdminSqlException(AdminSqlException.NO_SUCH_TABLE, "42S02", "Table '" + query.table()
                        + "' doesn't exist (tables: " + String.join(", ", Tables.NAMES) + ")");
            }
            return new AdminResult.Rows(query.apply(table));
        }
        Table.Builder row = new Table.Builder("");
        List<Object> values = new ArrayList<>();
        do {
            AdminTokens.Token token = tokens.take();
            String expression = token.text();
            if (tokens.accept("(")) {
                tokens.expect(")");
                expression += "()";
            }
            Object value = switch (expression.toLowerCase(Locale.ROOT)) {
                case "@@version_comment" -> VERSION_COMMENT;
                case "@@version", "version()" -> AdminSqlServer.VERSION;
                case "database()", "schema()" -> null;
                case "user()", "current_user()" -> user + "@localhost";
                case "connection_id()" -> 0L;
                default -> {
                    if (token.kind() == AdminTokens.Kind.NUMBER) {
                        yield Long.parseLong(token.text());
                    }
                    if (token.kind() == AdminTokens.Kind.STRING) {
                        yield token.text();
                    }
                    throw AdminSqlException.syntax("SELECT without FROM knows @@version_comment, @@version, DATABASE(),"
                            + " USER(), CONNECTION_ID() and literals, not " + token);
                }
            };
            if (value instanceof Long) {
                row.integer(expression);
            } else {
                row.text(token.kind() == AdminTokens.Kind.STRING ? token.text() : expression);
            }
            values.add(value);
        } while (tokens.accept(","));
        if (tokens.accept("LIMIT")) {
            tokens.take();
        }
        tokens.expectEnd();
        return new AdminResult.Rows(row.row(values.toArray()).build());
    }

    /** True when a FROM follows the select list (a table query), not a bare expression list. */
    private static boolean looksLikeTableQuery(String rest) {
        return rest.matches("(?is).*\\bfrom\\b.*");
    }

    private static String sqlAfterSelect(AdminTokens tokens) {
        return tokens.remainingText();
    }

    private AdminResult show(AdminTokens tokens) {
        if (tokens.accept("BACKENDS")) {
            tokens.expectEnd();
            Table all = tables.backends();
            return new AdminResult.Rows(new TableQuery(List.of("name", "address", "role", "state", "weight", "queries",
                    "errors", "conn_open", "conn_in_use", "conn_waiting", "p50_ms", "p95_ms", "p99_ms", "max_ms",
                    "replication_lag_s", "read_only", "last_check_error"), "backends", List.of(), List.of(), Long.MAX_VALUE, 0)
                    .apply(all));
        }
        if (tokens.accept("CAPTURE")) {
            tokens.expectEnd();
            return showCapture();
        }
        if (tokens.accept("MIRROR")) {
            tokens.expectEnd();
            return new AdminResult.Rows(MirrorTables.summary(runtime.mirror()));
        }
        if (tokens.accept("TABLES")) {
            tokens.expectEnd();
            return rows("tables", "Tables_in_sluice", Tables.NAMES);
        }
        if (tokens.accept("DATABASES")) {
            tokens.expectEnd();
            return rows("databases", "Database", List.of("sluice"));
        }
        tokens.accept("FULL");
        if (tokens.accept("PROCESSLIST")) {
            tokens.expectEnd();
            return new AdminResult.Rows(tables.sessions());
        }
        throw AdminSqlException.syntax("SHOW knows BACKENDS, CAPTURE, MIRROR, TABLES, DATABASES and PROCESSLIST, not " + tokens.peek());
    }

    private AdminResult set(AdminTokens tokens) {
        if (tokens.accept("CAPTURE")) {
            return setCapture(tokens);
        }
        if (!tokens.accept("BACKEND")) {
            // SET NAMES, SET autocommit and the like from clients: nothing to keep here.
            return new AdminResult.Ok(0, "");
        }
        String name = tokens.name("a backend name");
        Backend backend = backend(name);
        AdminTokens.Token what = tokens.take();
        tokens.accept("=");
        Object value = TableQuery.literal(tokens);
        tokens.expectEnd();
        if (what.is("STATE")) {
            return new AdminResult.Ok(1, setState(backend, String.valueOf(value)));
        }
        if (what.is("WEIGHT")) {
            return new AdminResult.Ok(1, setWeight(backend, value));
        }
        throw AdminSqlException.syntax("SET BACKEND " + name + " takes STATE or WEIGHT, not " + what);
    }

    /** SET CAPTURE ON: capture with the last settings (the config's, or --capture's); OFF stops it. */
    private AdminResult setCapture(AdminTokens tokens) {
        tokens.accept("=");
        AdminTokens.Token value = tokens.take();
        tokens.expectEnd();
        dev.sluice.proxy.capture.CaptureControl capture = runtime.capture();
        if (value.is("ON") || value.text().equals("1")) {
            try {
                return new AdminResult.Ok(0, capture.enable().describe());
            } catch (IllegalStateException e) {
                throw new AdminSqlException(AdminSqlException.WRONG_VALUE, "42000", e.getMessage());
            }
        }
        if (value.is("OFF") || value.text().equals("0")) {
            return new AdminResult.Ok(0, capture.disable().describe());
        }
        throw new AdminSqlException(AdminSqlException.WRONG_VALUE, "42000", "Variable 'capture' can't be set to the value"
                + " of '" + value.text() + "' (expected: ON or OFF)");
    }

    private AdminResult showCapture() {
        dev.sluice.proxy.capture.CaptureStatus status = runtime.capture().status();
        dev.sluice.proxy.capture.CaptureStats stats = runtime.capture().stats();
        Table.Builder table = new Table.Builder("capture").text("state").text("file").text("format").text("sql")
                .integer("queued").integer("written").integer("dropped").integer("bytes_written").integer("failures")
                .text("last_failure");
        table.row(status.running() ? "ON" : "OFF", status.config().file().map(Object::toString).orElse(null),
                status.config().format().configName(), status.config().sql().configName(), stats.queuedStatements(),
                stats.writtenStatements(), stats.droppedStatements(), stats.bytesWritten(), stats.failures(),
                status.failure().orElse(null));
        return new AdminResult.Rows(table.build());
    }

    private AdminResult update(AdminTokens tokens) {
        String table = tokens.name("a table name");
        if (!table.equalsIgnoreCase("backends")) {
            throw new AdminSqlException(1288, "HY000", "The target table " + table
                    + " of the UPDATE is not updatable (only backends is: state and weight)");
        }
        tokens.expect("SET");
        List<String[]> assignments = new ArrayList<>();
        do {
            String column = tokens.name("state or weight");
            tokens.expect("=");
            Object value = TableQuery.literal(tokens);
            if (!column.equalsIgnoreCase("state") && !column.equalsIgnoreCase("weight")) {
                throw new AdminSqlException(AdminSqlException.BAD_FIELD, "42S22", "Column '" + column
                        + "' of backends cannot be set (settable: state, weight)");
            }
            assignments.add(new String[] {column, value instanceof Double d ? String.valueOf(d.longValue()) : String.valueOf(value)});
        } while (tokens.accept(","));
        List<TableQuery.Condition> where = tokens.accept("WHERE") ? TableQuery.conditions(tokens) : List.of();
        tokens.expectEnd();
        Table current = tables.backends();
        TableQuery filter = new TableQuery(List.of(), "backends", where, List.of(), Long.MAX_VALUE, 0);
        List<String> changed = new ArrayList<>();
        int nameColumn = current.indexOf("name");
        for (List<Object> row : current.rows()) {
            if (!filter.matches(current, row)) {
                continue;
            }
            Backend backend = backend((String) row.get(nameColumn));
            for (String[] assignment : assignments) {
                changed.add(assignment[0].equalsIgnoreCase("state") ? setState(backend, assignment[1])
                        : setWeight(backend, assignment[1]));
            }
        }
        return new AdminResult.Ok(changed.isEmpty() ? 0 : current.rows().stream().filter(r -> filter.matches(current, r)).count(),
                String.join("; ", changed));
    }

    private String setState(Backend backend, String value) {
        Backend.State state;
        try {
            state = Backend.State.valueOf(value.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            state = null;
        }
        if (state == null || state == Backend.State.SHUNNED) {
            throw new AdminSqlException(AdminSqlException.WRONG_VALUE, "42000", "Variable 'state' can't be set to the value of '"
                    + value + "' (expected: ONLINE, DRAINING or OFFLINE; SHUNNED is the health checker's)");
        }
        Backend.State before = backend.state();
        backend.state(state);
        if (state == Backend.State.ONLINE) {
            // The admin vouches for it: any connect backoff ends now (a failing backend is shunned again by the checks).
            backend.connectSucceeded();
        }
        if (state == Backend.State.OFFLINE) {
            BackendPool pool = runtime.pool(backend);
            if (pool != null) {
                pool.evictIdle(Duration.ZERO);
            }
        }
        return backend.name() + " state " + before + " -> " + state;
    }

    private String setWeight(Backend backend, Object value) {
        long weight;
        try {
            weight = value instanceof Number n ? n.longValue() : Long.parseLong(String.valueOf(value));
        } catch (NumberFormatException e) {
            weight = -1;
        }
        if (weight < 0 || weight > Integer.MAX_VALUE) {
            throw new AdminSqlException(AdminSqlException.WRONG_VALUE, "42000", "Variable 'weight' can't be set to the value of '"
                    + value + "' (expected: an integer >= 0; 0 takes the backend out of rotation)");
        }
        int before = backend.weight();
        backend.weight((int) weight);
        return backend.name() + " weight " + before + " -> " + weight;
    }

    private Backend backend(String name) {
        return runtime.backends().stream().filter(b -> b.name().equalsIgnoreCase(name)).findFirst()
                .orElseThrow(() -> new AdminSqlException(AdminSqlException.WRONG_VALUE, "42000", "No backend named '" + name
                        + "' (backends: " + String.join(", ", runtime.backends().stream().map(Backend::name).toList()) + ")"));
    }

    private static AdminResult rows(String table, String column, List<String> values) {
        Table.Builder builder = new Table.Builder(table).text(column);
        values.forEach(builder::row);
        return new AdminResult.Rows(builder.build());
    }
}
