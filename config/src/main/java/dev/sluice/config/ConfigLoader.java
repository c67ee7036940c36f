package dev.sluice.config;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.api.lowlevel.Compose;
import org.snakeyaml.engine.v2.exceptions.MarkedYamlEngineException;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.schema.CoreSchema;

/**
 * Loads a {@link SluiceConfig} from YAML. Stateless: every call reads afresh, so a reload is just
 * another call. Every problem in the file is reported at once in one {@link ConfigException}.
 *
 * <p>The YAML is composed into nodes rather than constructed into maps, so every value keeps its
 * line and column, duplicate keys are seen, and values are typed by the schema here rather than
 * by YAML's guesses (a password {@code 0123} stays the text {@code 0123}).
 */
public final class ConfigLoader {

    /** What snakeyaml says of an unquoted password_hash: {@code *HEX} reads as an alias. */
    private static final Pattern HASH_AS_ALIAS = Pattern.compile("found undefined alias \\p{XDigit}{40}");

    private ConfigLoader() {
    }

    /** Loads a file, interpolating the process environment. */
    public static SluiceConfig load(Path file) {
        return load(file, System.getenv());
    }

    /**
     * Loads a file, interpolating {@code env}. Relative certificate paths are taken from the
     * file's folder. The source name in messages is the path as given.
     */
    public static SluiceConfig load(Path file, Map<String, String> env) {
        Objects.requireNonNull(file, "file");
        String source = file.toString();
        Path baseDir = file.toAbsolutePath().getParent();
        return parse(read(file, source), source, env, baseDir);
    }

    /** Parses YAML text, interpolating the process environment. */
    public static SluiceConfig parse(String yaml, String sourceName) {
        return parse(yaml, sourceName, System.getenv());
    }

    /** Parses YAML text with {@code env} for {@code ${VAR}}; relative paths stay relative to the working folder. */
    public static SluiceConfig parse(String yaml, String sourceName, Map<String, String> env) {
        return parse(yaml, sourceName, env, null);
    }

    private static SluiceConfig parse(String yaml, String source, Map<String, String> env, Path baseDir) {
        Objects.requireNonNull(yaml, "yaml");
        Objects.requireNonNull(source, "sourceName");
        Problems problems = new Problems(source);
        Node root = compose(yaml, source).orElse(null);
        if (root == null || YamlMapping.isNull(root)) {
            throw new ConfigException(new ConfigProblem(source, 1, 1, "",
                    "no settings (expected: a mapping with at least \"backends\")"));
        }
        return new ConfigReader(problems, new EnvInterpolator(env), baseDir).read(root);
    }

    private static Optional<Node> compose(String yaml, String source) {
        LoadSettings settings = LoadSettings.builder()
                .setLabel(source)
                .setSchema(new CoreSchema())
                .setAllowRecursiveKeys(false)
                .build();
        try {
            return new Compose(settings).composeString(yaml);
        } catch (MarkedYamlEngineException e) {
            Problems problems = new Problems(source);
            problems.at(e.getProblemMark().or(e::getContextMark), "", syntaxMessage(e));
            throw problems.exception(e);
        } catch (YamlEngineException e) {
            throw new ConfigException(ConfigProblem.unplaced(source, "", "invalid YAML: " + e.getMessage()));
        }
    }

    private static String syntaxMessage(MarkedYamlEngineException e) {
        String problem = e.getProblem() == null ? "malformed" : e.getProblem().strip();
        if (HASH_AS_ALIAS.matcher(problem).matches()) {
            // A bare *HEX is a YAML alias; the message must not repeat the hash.
            return "invalid YAML: a value starting with * is an alias: write a mysql_native_password hash in quotes,"
                    + " password_hash: \"*...\"";
        }
        String context = e.getContext() == null ? "" : e.getContext().strip();
        if (context.isEmpty()) {
            return "invalid YAML: " + problem;
        }
        String where = e.getContextMark().map(m -> " at line " + (m.getLine() + 1)).orElse("");
        return "invalid YAML: " + problem + " (" + context + where + ")";
    }

    private static String read(Path file, String source) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw unreadable(source, "no such file", e);
        } catch (AccessDeniedException e) {
            throw unreadable(source, "permission denied", e);
        } catch (IOException e) {
            String reason = Files.isDirectory(file) ? "is a directory" : String.valueOf(e.getMessage());
            throw unreadable(source, reason, e);
        }
        try {
            String text = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes))
                    .toString();
            return text.startsWith("\uFEFF") ? text.substring(1) : text;
        } catch (CharacterCodingException e) {
            throw unreadable(source, "not UTF-8 text", e);
        }
    }

    private static ConfigException unreadable(String source, String reason, Exception cause) {
        return new ConfigException(List.of(
                ConfigProblem.unplaced(source, "", "cannot read the config file: " + reason)), cause);
    }
}
