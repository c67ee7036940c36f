package dev.sluice.proxy.admin;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * {@code SELECT cols FROM table [WHERE cond [AND cond ...]] [ORDER BY col [ASC|DESC], ...]
 * [LIMIT n [OFFSET m] | LIMIT m, n]} over one admin table. A condition compares a column with a
 * literal ({@code = != <> < <= > >=}, {@code [NOT] LIKE}, {@code IS [NOT] NULL}); numbers compare as
 * numbers, text without regard to case.
 */
record TableQuery(List<String> columns, String table, List<Condition> where, List<Order> orderBy, long limit,
                  long offset) {

    record Condition(String column, String operator, Object literal) {
    }

    record Order(String column, boolean descending) {
    }

    /** Parses what follows SELECT, up to the end of the statement. */
    static TableQuery parseAfterSelect(AdminTokens tokens) {
        List<String> columns = new ArrayList<>();
        if (!tokens.accept("*")) {
            do {
                columns.add(tokens.name("a column name"));
            } while (tokens.accept(","));
        }
        tokens.expect("FROM");
        String table = tokens.name("a table name");
        List<Condition> where = tokens.accept("WHERE") ? conditions(tokens) : List.of();
        List<Order> order = new ArrayList<>();
        if (tokens.accept("ORDER")) {
            tokens.expect("BY");
            do {
                String column = tokens.name("a column name");
                boolean descending = tokens.accept("DESC");
                if (!descending) {
                    tokens.accept("ASC");
                }
                order.add(new Order(column, descending));
            } while (tokens.accept(","));
        }
        long limit = Long.MAX_VALUE;
        long offset = 0;
        if (tokens.accept("LIMIT")) {
            limit = number(tokens);
            if (tokens.accept(",")) {
                offset = limit;
                limit = number(tokens);
            } else if (tokens.accept("OFFSET")) {
                offset = number(tokens);
            }
        }
        tokens.expectEnd();
        return new TableQuery(columns, table, where, order, limit, offset);
    }

    static List<Condition> conditions(AdminTokens tokens) {
        List<Condition> conditions = new ArrayList<>();
        do {
            String column = tokens.name("a column name");
            if (tokens.accept("IS")) {
                boolean not = tokens.accept("NOT");
                tokens.expect("NULL");
                conditions.add(new Condition(column, not ? "IS NOT NULL" : "IS NULL", null));
                continue;
            }
            boolean not = tokens.accept("NOT");
            String operator;
            if (tokens.accept("LIKE")) {
                operator = not ? "NOT LIKE" : "LIKE";
            } else if (not) {
                throw AdminSqlException.syntax("found NOT " + tokens.peek() + " where NOT LIKE was expected");
            } else {
                AdminTokens.Token symbol = tokens.take();
                operator = switch (symbol.text()) {
                    case "=", "!=", "<>", "<", "<=", ">", ">=" -> symbol.text();
                    default -> throw AdminSqlException.syntax("found " + symbol + " where a comparison (= != <> < <= > >= LIKE IS)"
                            + " was expected");
                };
            }
            conditions.add(new Condition(column, operator, literal(tokens)));
        } while (tokens.accept("AND"));
        return conditions;
    }

    static Object literal(AdminTokens tokens) {
        boolean negative = tokens.accept("-");
        AdminTokens.Token token = tokens.take();
        return switch (token.kind()) {
            case NUMBER -> {
                double value = Double.parseDouble(token.text());
                yield negative ? -value : value;
            }
            case STRING -> token.text();
            case WORD -> {
                if (token.is("NULL")) {
                    yield null;
                }
                if (token.is("TRUE") || token.is("FALSE")) {
                    yield token.is("TRUE") ? 1.0 : 0.0;
                }
                yield token.text();
            }
            default -> throw AdminSqlException.syntax("found " + token + " where a value was expected");
        };
    }

    private static long number(AdminTokens tokens) {
        AdminTokens.Token token = tokens.take();
        if (token.kind() != AdminTokens.Kind.NUMBER || token.text().contains(".")) {
            throw AdminSqlException.syntax("found " + token + " where a whole number was expected");
        }
        return Long.parseLong(token.text());
    }

    /** Runs the query over {@code source}. */
    Table apply(Table source) {
        List<Integer> projection = new ArrayList<>();
        if (columns.isEmpty()) {
            for (int i = 0; i < source.columns().size(); i++) {
                projection.add(i);
            }
        } else {
            for (String column : columns) {
                projection.add(column(source, column));
            }
        }
        List<List<Object>> rows = new ArrayList<>(source.rows().stream().filter(row -> matches(source, row)).toList());
        Comparator<List<Object>> comparator = null;
        for (Order order : orderBy) {
            int index = column(source, order.column());
            Comparator<List<Object>> next = (a, b) -> compare(a.get(index), b.get(index));
            next = order.descending() ? next.reversed() : next;
            comparator = comparator == null ? next : comparator.thenComparing(next);
        }
        if (comparator != null) {
            rows.sort(comparator);
        }
        Table.Builder out = new Table.Builder(source.name());
        for (int index : projection) {
            Table.Column column = source.columns().get(index);
            switch (column.type()) {
                case TEXT -> out.text(column.name());
                case INTEGER -> out.integer(column.name());
                case DECIMAL -> out.decimal(column.name());
            }
        }
        rows.stream().skip(offset).limit(limit).forEach(row -> out.row(projection.stream().map(row::get).toArray()));
        return out.build();
    }

    boolean matches(Table table, List<Object> row) {
        for (Condition condition : where) {
            if (!test(row.get(column(table, condition.column())), condition)) {
                return false;
            }
        }
        return true;
    }

    private static boolean test(Object value, Condition condition) {
        return switch (condition.operator()) {
            case "IS NULL" -> value == null;
            case "IS NOT NULL" -> value != null;
            case "LIKE", "NOT LIKE" -> value != null && condition.literal() != null
                    && like(Table.text(value), String.valueOf(condition.literal())) == condition.operator().equals("LIKE");
            default -> {
                if (value == null || condition.literal() == null) {
                    yield false;
                }
                int order = compare(value, condition.literal());
                yield switch (condition.operator()) {
                    case "=" -> order == 0;
                    case "!=", "<>" -> order != 0;
                    case "<" -> order < 0;
                    case "<=" -> order <= 0;
                    case ">" -> order > 0;
                    default -> order >= 0;
                };
            }
        };
    }

    static int compare(Object a, Object b) {
        if (a == null || b == null) {
            return a == null ? (b == null ? 0 : -1) : 1;
        }
        if (a instanceof Number x && b instanceof Number y) {
            return Double.compare(x.doubleValue(), y.doubleValue());
        }
        if (a instanceof Number x && b instanceof String text) {
            try {
                return Double.compare(x.doubleValue(), Double.parseDouble(text));
            } catch (NumberFormatException e) {
                return Table.text(x).compareToIgnoreCase(text);
            }
        }
        if (a instanceof String text && b instanceof Number) {
            return -compare(b, text);
        }
        return Table.text(a).compareToIgnoreCase(Table.text(b));
    }

    private static boolean like(String value, String pattern) {
        StringBuilder regex = new StringBuilder();
        for (char c : pattern.toCharArray()) {
            switch (c) {
                case '%' -> regex.append(".*");
                case '_' -> regex.append('.');
                default -> regex.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return Pattern.compile(regex.toString(), Pattern.CASE_INSENSITIVE | Pattern.DOTALL).matcher(value).matches();
    }

    static int column(Table table, String name) {
        int index = table.indexOf(name);
        if (index < 0) {
            throw new AdminSqlException(AdminSqlException.BAD_FIELD, "42S22", "Unknown column '" + name + "' in table "
                    + table.name() + " (columns: " + String.join(", ", table.columnNames()) + ")");
        }
        return index;
    }

    String tableLower() {
        return table.toLowerCase(Locale.ROOT);
    }
}
