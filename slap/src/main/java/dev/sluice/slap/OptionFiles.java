package dev.sluice.slap;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The option files (my.cnf) mysqlslap reads before its command line, read as the MariaDB clients
 * read them: the same files in the same order, the same groups, {@code !include} and
 * {@code !includedir}, quotes, escapes and comments, {@code loose-}, {@code skip-} and
 * {@code enable-} prefixes, {@code _} for {@code -}. A DBA's credentials in ~/.my.cnf work
 * unchanged. What the files give becomes command-line arguments placed in front of the real
 * ones (MySQL's load_defaults does the same), so the command line wins, and among the files the
 * later file or line wins.
 */
final class OptionFiles {

    /** Groups only slap reads: an option there that slap does not know is an error, as in mysqlslap. */
    static final List<String> OWN_GROUPS = List.of("mysqlslap", "mariadb-slap");
    /** Groups every client reads: options meant for other programs are passed over. */
    static final List<String> SHARED_GROUPS = List.of("client", "client-server", "client-mariadb");
    /** The options that choose the files; they mean nothing inside one. */
    static final Set<String> SELECTION_OPTIONS = Set.of("no-defaults", "defaults-file", "defaults-extra-file",
            "defaults-group-suffix", "print-defaults");

    /**
     * Options slap takes on its command line for compatibility and does not use, as it always
     * connects over TCP: from a file (Debian's my.cnf gives every client a socket) they would
     * only bring slap's note about them to every run.
     */
    static final Set<String> PASSED_OVER = Set.of("socket", "protocol");

    private static final int MAX_INCLUDE_DEPTH = 10;
    /** mysql's exit status for an unknown option name, and for an unknown name given a value. */
    private static final int EXIT_UNKNOWN_OPTION = 2;
    private static final int EXIT_UNKNOWN_VARIABLE = 7;

    /** How an option takes its value on the command line. */
    enum Kind { FLAG, OPTIONAL_VALUE, VALUE }

    /** Which files to read: the command line's --no-defaults, --defaults-file and so on. */
    record Selection(boolean none, Path only, Path extra, String groupSuffix) {
        static final Selection DEFAULT = new Selection(false, null, null, null);
    }

    /** Where the files are looked for: the global ones in order, then the user's. */
    record Locations(List<Path> global, Path user) {

        /** MariaDB's order on Unix: /etc/my.cnf, /etc/mysql/my.cnf, $MARIADB_HOME/my.cnf, ~/.my.cnf. */
        static Locations system() {
            List<Path> global = new ArrayList<>(List.of(Path.of("/etc/my.cnf"), Path.of("/etc/mysql/my.cnf")));
            String home = System.getenv("MARIADB_HOME") != null ? System.getenv("MARIADB_HOME") : System.getenv("MYSQL_HOME");
            if (home != null && !home.isBlank()) {
                global.add(Path.of(home, "my.cnf"));
            }
            String user = System.getProperty("user.home");
            return new Locations(global, user == null || user.isBlank() ? null : Path.of(user, ".my.cnf"));
        }

        static Locations none() {
            return new Locations(List.of(), null);
        }
    }

    /** One argument the files give, with the file and line it came from (for messages). */
    record Argument(String name, String text, Path file, int line) {

        /** As shown to people: a password is masked. */
        String shown() {
            return name.equals("password") && text.contains("=") ? "--password=*****" : text;
        }

        String origin() {
            return shown() + " (" + file + " line " + line + ")";
        }
    }

    /** The arguments in the order they apply, and the warnings met (files passed over). */
    record Result(List<Argument> arguments, List<String> warnings) {

        List<String> texts() {
            return arguments.stream().map(Argument::text).toList();
        }
    }

    /** Where each of {@code arguments} came from, for a message. */
    static String origins(List<Argument> arguments) {
        return arguments.stream().map(Argument::origin).collect(Collectors.joining(", "));
    }

    /** How {@code command} takes the long option {@code name} (no dashes), or null if it has none. */
    static Kind kindOf(CommandSpec command, String name) {
        OptionSpec option = command.optionsMap().get("--" + name);
        if (option == null || option.usageHelp() || option.versionHelp()) {
            return null;
        }
        if (option.arity().max() == 0) {
            return Kind.FLAG;
        }
        return option.arity().min() == 0 ? Kind.OPTIONAL_VALUE : Kind.VALUE;
    }

    private record Line(String group, String key, String value, Path file, int number) { }

    private final Function<String, Kind> options;
    private final List<String> groups;
    private final List<Line> lines = new ArrayList<>();
    private final List<String> warnings = new ArrayList<>();

    private OptionFiles(Function<String, Kind> options, String groupSuffix) {
        this.options = options;
        List<String> wanted = new ArrayList<>(OWN_GROUPS);
        wanted.addAll(SHARED_GROUPS);
        if (groupSuffix != null && !groupSuffix.isEmpty()) {
            for (String group : List.copyOf(wanted)) {
                wanted.add(group + groupSuffix);
            }
        }
        this.groups = wanted;
    }

    /**
     * Reads the files {@code selection} names from {@code where}; {@code options} tells, for a
     * long option name without dashes, how slap takes it, or null when slap has no such option.
     */
    static Result read(Selection selection, Locations where, Function<String, Kind> options) {
        OptionFiles files = new OptionFiles(options, selection.groupSuffix());
        if (!selection.none()) {
            if (selection.only() != null) {
                files.parse(selection.only(), true, 0);
            } else {
                for (Path global : where.global()) {
                    files.parse(global, false, 0);
                }
                if (selection.extra() != null) {
                    files.parse(selection.extra(), true, 0);
                }
                if (where.user() != null) {
                    files.parse(where.user(), false, 0);
                }
            }
        }
        return new Result(files.arguments(), List.copyOf(files.warnings));
    }

    private void parse(Path file, boolean required, int depth) {
        if (depth > MAX_INCLUDE_DEPTH) {
            throw new SlapException("option file " + file + ": !include nested more than " + MAX_INCLUDE_DEPTH
                    + " deep (does it include itself?)", 1);
        }
        String text;
        try {
            if (!required && Files.isDirectory(file)) {
                return;
            }
            if (worldWritable(file)) {
                warnings.add("World-writable config file '" + file + "' is ignored");
                return;
            }
            text = new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
        } catch (NoSuchFileException | AccessDeniedException e) {
            // As the mysql clients: a file that is not there, or not readable by this user, is passed over.
            if (required) {
                throw new SlapException("Could not open required defaults file: " + file.toAbsolutePath(), 1);
            }
            return;
        } catch (IOException e) {
            throw new SlapException("Could not read option file " + file + ": " + e.getMessage(), 1);
        }
        String group = null;
        String[] all = text.split("\r?\n", -1);
        for (int i = 0; i < all.length; i++) {
            int number = i + 1;
            String line = all[i].strip();
            if (line.isEmpty() || line.startsWith("#") || line.startsWith(";")) {
                continue;
            }
            if (line.startsWith("!")) {
                directive(line, file, number, depth);
            } else if (line.startsWith("[")) {
                int end = line.indexOf(']');
                if (end < 0) {
                    throw fatal("Wrong group definition", file, number);
                }
                group = line.substring(1, end).strip().toLowerCase(Locale.ROOT);
            } else if (group == null) {
                throw fatal("Found option without preceding group", file, number);
            } else if (groups.contains(group)) {
                int equals = line.indexOf('=');
                String key = equals < 0 ? withoutComment(line) : line.substring(0, equals).strip();
                String value = equals < 0 ? null : value(line.substring(equals + 1));
                lines.add(new Line(group, key.replace('_', '-'), value, file, number));
            }
        }
    }

    private void directive(String line, Path file, int number, int depth) {
        String[] parts = line.split("\\s+", 2);
        if (parts.length < 2 || parts[1].isBlank()) {
            throw fatal("Wrong '!' directive", file, number);
        }
        Path target = file.toAbsolutePath().getParent().resolve(parts[1].strip());
        switch (parts[0]) {
            case "!include" -> parse(target, false, depth + 1);
            case "!includedir" -> {
                if (!Files.isDirectory(target)) {
                    return;
                }
                try (Stream<Path> entries = Files.list(target)) {
                    for (Path included : entries.filter(p -> p.getFileName().toString().endsWith(".cnf")).sorted().toList()) {
                        parse(included, false, depth + 1);
                    }
                } catch (IOException e) {
                    throw new SlapException("Could not read the option file folder " + target + ": " + e.getMessage(), 1);
                }
            }
            default -> throw fatal("Wrong '!' directive", file, number);
        }
    }

    /** The lines of the groups read, as arguments: each option once, where its last line put it. */
    private List<Argument> arguments() {
        Map<String, Argument> byName = new LinkedHashMap<>();
        for (Line line : lines) {
            boolean own = OWN_GROUPS.stream().anyMatch(line.group()::startsWith);
            String key = line.key();
            boolean loose = key.startsWith("loose-");
            if (loose) {
                key = key.substring("loose-".length());
            }
            if (SELECTION_OPTIONS.contains(key) || PASSED_OVER.contains(key)) {
                continue;
            }
            Kind kind = options.apply(key);
            boolean enable = true;
            if (kind == null) {
                for (String prefix : List.of("skip-", "disable-", "enable-")) {
                    String rest = key.startsWith(prefix) ? key.substring(prefix.length()) : null;
                    if (rest != null && options.apply(rest) == Kind.FLAG) {
                        kind = Kind.FLAG;
                        enable = prefix.equals("enable-");
                        key = rest;
                        break;
                    }
                }
            }
            if (kind == null) {
                if (own && !loose) {
                    String shown = line.value() == null ? line.key() : line.key() + "=" + line.value();
                    throw new SlapException((line.value() == null ? "unknown option '--" : "unknown variable '")
                            + shown + "' in " + line.file() + " line " + line.number() + " (group ["
                            + line.group() + "])", line.value() == null ? EXIT_UNKNOWN_OPTION : EXIT_UNKNOWN_VARIABLE);
                }
                continue;
            }
            byName.remove(key);
            String text = switch (kind) {
                case FLAG -> enable && flag(line) ? "--" + key : null;
                case OPTIONAL_VALUE -> line.value() == null ? "--" + key : "--" + key + "=" + line.value();
                case VALUE -> {
                    if (line.value() == null) {
                        throw new SlapException("option '--" + key + "' requires an argument, in " + line.file()
                                + " line " + line.number(), 5);
                    }
                    yield "--" + key + "=" + line.value();
                }
            };
            if (text != null) {
                byName.put(key, new Argument(key, text, line.file(), line.number()));
            }
        }
        return List.copyOf(byName.values());
    }

    /** A flag's value as my_getopt reads booleans. */
    private static boolean flag(Line line) {
        if (line.value() == null) {
            return true;
        }
        return switch (line.value().toLowerCase(Locale.ROOT)) {
            case "", "1", "true", "on", "yes" -> true;
            case "0", "false", "off", "no" -> false;
            default -> throw new SlapException("option '" + line.key() + "' takes 0 or 1 (or on/off, true/false), not '"
                    + line.value() + "', in " + line.file() + " line " + line.number(), 13);
        };
    }

    /** A value: quoted (the quotes removed) or bare (up to a # comment), escapes read. */
    static String value(String raw) {
        String text = raw.strip();
        if (!text.isEmpty() && (text.charAt(0) == '"' || text.charAt(0) == '\'')) {
            char quote = text.charAt(0);
            for (int i = 1; i < text.length(); i++) {
                if (text.charAt(i) == '\\') {
                    i++;
                } else if (text.charAt(i) == quote) {
                    return unescape(text.substring(1, i));
                }
            }
        }
        return unescape(withoutComment(text));
    }

    private static String withoutComment(String text) {
        int hash = text.indexOf('#');
        return (hash < 0 ? text : text.substring(0, hash)).strip();
    }

    private static String unescape(String text) {
        if (text.indexOf('\\') < 0) {
            return text;
        }
        StringBuilder out = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c != '\\' || i + 1 == text.length()) {
                out.append(c);
                continue;
            }
            char next = text.charAt(++i);
            switch (next) {
                case 'b' -> out.append('\b');
                case 't' -> out.append('\t');
                case 'n' -> out.append('\n');
                case 'r' -> out.append('\r');
                case 's' -> out.append(' ');
                case '\\', '"', '\'' -> out.append(next);
                default -> out.append('\\').append(next);
            }
        }
        return out.toString();
    }

    /** MySQL ignores a file anyone may write: it could hand the client any server and password. */
    private static boolean worldWritable(Path file) throws IOException {
        try {
            return Files.getPosixFilePermissions(file).contains(PosixFilePermission.OTHERS_WRITE);
        } catch (UnsupportedOperationException e) {
            return false;
        }
    }

    private static SlapException fatal(String what, Path file, int number) {
        return new SlapException(what + " in config file " + file + " at line " + number
                + "\nFatal error in defaults handling. Program aborted", 1);
    }
}
