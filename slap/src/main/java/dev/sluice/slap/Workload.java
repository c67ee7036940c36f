package dev.sluice.slap;

import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The statement lists of a run, built once as mysqlslap builds them in get_options: generated
 * values are fixed here, not per execution.
 *
 * @param create      the CREATE TABLE and the distinct pre-load INSERTs, or the --create statements
 * @param queries     the list every client cycles through
 * @param queryCount  the number of --query statements mysqlslap counted (its default per-client limit)
 * @param writeNumber the pre-load budget of --auto-generate-sql-write-number (generated runs only)
 */
public record Workload(List<Statement> create, List<Statement> queries, long queryCount,
                       List<Statement> pre, List<Statement> post, boolean generated, long writeNumber) {

    public Workload {
        create = List.copyOf(create);
        queries = List.copyOf(queries);
        pre = List.copyOf(pre);
        post = List.copyOf(post);
    }

    public static Workload build(WorkloadOptions options, RandomValues random) {
        char delimiter = options.delimiter().charAt(0);
        List<Statement> pre = split(read(options.preQuery(), "User query supplied file"), delimiter).statements;
        List<Statement> post = split(read(options.postQuery(), "User query supplied file"), delimiter).statements;
        if (options.autoGenerateSql()) {
            return generated(options, random, pre, post);
        }
        List<Statement> create = split(read(options.create(), "Create file"), delimiter).statements;
        if (!create.isEmpty() && !options.engines().isEmpty()) {
            // mysqlslap marks the head of the --create list as the CREATE TABLE that gets the engine.
            create = new ArrayList<>(create);
            create.set(0, create.get(0).asCreateTable());
        }
        Parsed queries = split(read(options.query(), "User query supplied file"), delimiter);
        return new Workload(create, queries.statements, queries.count, pre, post, false, 0);
    }

    private static Workload generated(WorkloadOptions options, RandomValues random,
                                      List<Statement> pre, List<Statement> post) {
        SqlGenerator sql = new SqlGenerator(options, random);
        List<Statement> create = new ArrayList<>();
        create.add(sql.createTable());
        for (long i = 0; i < options.uniqueWriteNumber(); i++) {
            create.add(sql.insert());
        }
        // N+1 statements: mysqlslap builds one, then N more.
        List<Statement> queries = new ArrayList<>();
        LoadType type = options.parsedLoadType();
        for (long i = 0; i <= options.uniqueQueryNumber(); i++) {
            queries.add(switch (type) {
                case READ -> sql.select(false);
                case KEY -> sql.select(true);
                case WRITE -> sql.insert();
                case UPDATE -> sql.update();
                // An INSERT first, then "every other": SELECT, INSERT, SELECT, ...
                case MIXED -> i % 2 == 0 ? sql.insert() : sql.select(true);
            });
        }
        return new Workload(create, queries, 0, pre, post, true, options.writeNumber());
    }

    /** Whether every statement is ASCII: the same bytes in latin1 as in UTF-8. */
    public boolean allAscii() {
        return Stream.of(create, queries, pre, post).flatMap(List::stream).allMatch(s -> s.utf8().length == s.sql().length());
    }

    /** Whether any statement may hold several (it has a {@code ;} the delimiter did not split on). */
    public boolean hasMultiStatements() {
        return Stream.of(create, queries, pre, post).flatMap(List::stream)
                .anyMatch(s -> s.sql().indexOf(';') >= 0);
    }

    /**
     * The statements the setup connection runs after selecting the schema, in mysqlslap's order:
     * for a generated run the first {@code writeNumber} items of CREATE TABLE, the distinct
     * INSERTs, then the INSERTs again and again; otherwise the --create list.
     */
    public List<Statement> setupStatements() {
        if (!generated) {
            return create;
        }
        List<Statement> out = new ArrayList<>();
        if (writeNumber == 0 || create.isEmpty()) {
            return out;
        }
        out.add(create.get(0));
        int inserts = create.size() - 1;
        // mysqlslap loops forever when there are no INSERTs to repeat; slap stops after the CREATE.
        for (long i = 1; i < writeNumber && inserts > 0; i++) {
            out.add(create.get(1 + (int) ((i - 1) % inserts)));
        }
        return out;
    }

    private record Parsed(List<Statement> statements, int count) { }

    private static Parsed split(String text, char delimiter) {
        if (text == null) {
            return new Parsed(List.of(), 0);
        }
        ScriptSplitter.Split split = ScriptSplitter.split(text, delimiter);
        return new Parsed(split.statements().stream().map(Statement::plain).toList(), split.count());
    }

    /** mysqlslap reads the value as a file when a file of that name exists, else as SQL. */
    static String read(String value, String what) {
        if (value == null) {
            return null;
        }
        Path path;
        try {
            path = Path.of(value);
        } catch (InvalidPathException e) {
            return value;
        }
        if (value.isEmpty() || !Files.exists(path)) {
            return value;
        }
        if (!Files.isRegularFile(path)) {
            throw new SlapException(what + " was not a regular file: " + value, 1);
        }
        try {
            return Files.readString(path);
        } catch (CharacterCodingException e) {
            throw new SlapException("Could not read " + value + ": not valid UTF-8 text", 1, e);
        } catch (IOException e) {
            throw new SlapException("Could not open " + value + ": " + e.getMessage(), 1, e);
        }
    }
}
