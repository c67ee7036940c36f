package dev.sluice.config;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A configuration from command-line flags, for starting without a file:
 * {@code --backend HOST:PORT[,role=replica,weight=N,name=X,max_connections=N]} (repeatable) and
 * {@code --user NAME:PASSWORD} (repeatable; the password may contain ':'). Errors name the flag
 * and the option, never the password.
 */
public final class QuickStart {

    public static final String BACKEND_FLAG = "--backend";
    public static final String USER_FLAG = "--user";
    static final String BACKEND_FORM = "HOST:PORT[,role=replica,weight=N,name=X,max_connections=N]";
    static final List<String> BACKEND_OPTIONS = List.of("role", "weight", "name", "max_connections");

    private QuickStart() {
    }

    /**
     * Parses one {@code --backend} value. Without {@code name=}, the backend is named after its address.
     *
     * @throws ConfigException naming the flag, the option and what was expected
     */
    public static BackendConfig backend(String spec) {
        List<ConfigProblem> problems = new ArrayList<>();
        BackendSpec parsed = parseBackend(spec, problems);
        if (!problems.isEmpty()) {
            throw new ConfigException(problems);
        }
        return parsed.build(parsed.name == null ? parsed.address.toString() : parsed.name);
    }

    /**
     * Parses one {@code --user NAME:PASSWORD}; everything after the first ':' is the password.
     *
     * @throws ConfigException naming the flag and the user, never the password
     */
    public static UserConfig user(String spec) {
        List<ConfigProblem> problems = new ArrayList<>();
        UserConfig user = parseUser(spec, problems);
        if (!problems.isEmpty()) {
            throw new ConfigException(problems);
        }
        return user;
    }

    /**
     * A whole config from flag values, with defaults for everything else. Backends without a name
     * are called primary (or primary1, primary2, ... when there are several) and replica1,
     * replica2, ..., skipping names given explicitly.
     *
     * @throws ConfigException listing every problem in every flag
     */
    public static SluiceConfig config(List<String> backendSpecs, List<String> userSpecs) {
        List<ConfigProblem> problems = new ArrayList<>();
        if (backendSpecs.isEmpty()) {
            problems.add(ConfigProblem.unplaced(BACKEND_FLAG, "",
                    "no backends (expected: at least one " + BACKEND_FLAG + " " + BACKEND_FORM + ")"));
        }
        List<BackendSpec> specs = new ArrayList<>();
        Set<String> explicitNames = new HashSet<>();
        for (String text : backendSpecs) {
            BackendSpec spec = parseBackend(text, problems);
            if (spec != null && spec.name != null && !explicitNames.add(spec.name)) {
                problems.add(ConfigProblem.unplaced(spec.source, "name",
                        "duplicate backend name " + Messages.quote(spec.name) + " (expected: unique names)"));
            }
            specs.add(spec);
        }
        List<UserConfig> users = new ArrayList<>();
        Set<String> userNames = new HashSet<>();
        for (String text : userSpecs) {
            UserConfig user = parseUser(text, problems);
            if (user != null && !userNames.add(user.name())) {
                problems.add(ConfigProblem.unplaced(userSource(user.name()), "",
                        "duplicate user name " + Messages.quote(user.name()) + " (expected: unique names)"));
            }
            users.add(user);
        }
        if (!problems.isEmpty()) {
            throw new ConfigException(problems);
        }
        try {
            return SluiceConfig.defaults().withBackends(name(specs, explicitNames)).withUsers(users)
                    .withAdmin(AdminConfig.defaults()).withHealth(HealthConfig.defaults());
        } catch (IllegalArgumentException e) {
            throw new ConfigException(List.of(ConfigProblem.unplaced(BACKEND_FLAG, "", e.getMessage())), e);
        }
    }

    private static List<BackendConfig> name(List<BackendSpec> specs, Set<String> taken) {
        long unnamedPrimaries = specs.stream().filter(s -> s.name == null && s.role == BackendConfig.Role.PRIMARY).count();
        Set<String> used = new HashSet<>(taken);
        Map<BackendConfig.Role, Integer> next = new LinkedHashMap<>();
        List<BackendConfig> backends = new ArrayList<>();
        for (BackendSpec spec : specs) {
            String name = spec.name;
            if (name == null && spec.role == BackendConfig.Role.PRIMARY && unnamedPrimaries == 1 && used.add("primary")) {
                name = "primary";
            }
            while (name == null) {
                int index = next.merge(spec.role, 1, Integer::sum);
                String candidate = spec.role.configName() + index;
                if (used.add(candidate)) {
                    name = candidate;
                }
            }
            backends.add(spec.build(name));
        }
        return backends;
    }

    private static BackendSpec parseBackend(String text, List<ConfigProblem> problems) {
        Objects.requireNonNull(text, "spec");
        String source = BACKEND_FLAG + " " + Messages.quote(text);
        String[] parts = text.split(",", -1);
        int before = problems.size();
        BackendSpec spec = new BackendSpec(source);
        spec.address = value(source, "", parts[0], Scalars::backendAddress, problems);
        Set<String> seen = new HashSet<>();
        for (int i = 1; i < parts.length; i++) {
            int equals = parts[i].indexOf('=');
            String key = equals < 0 ? parts[i] : parts[i].substring(0, equals);
            String value = equals < 0 ? "" : parts[i].substring(equals + 1);
            if (equals < 0) {
                problems.add(ConfigProblem.unplaced(source, "", Messages.quote(parts[i])
                        + " is not an option (expected: KEY=VALUE, KEY " + Messages.oneOf(BACKEND_OPTIONS) + ")"));
            } else if (!BACKEND_OPTIONS.contains(key)) {
                problems.add(ConfigProblem.unplaced(source, "", "unknown option " + Messages.quote(key)
                        + " (" + Messages.oneOf(BACKEND_OPTIONS) + ")"));
            } else if (!seen.add(key)) {
                problems.add(ConfigProblem.unplaced(source, key, "given twice (expected: each option once)"));
            } else {
                spec.set(key, value, problems);
            }
        }
        return problems.size() == before ? spec : null;
    }

    private static UserConfig parseUser(String text, List<ConfigProblem> problems) {
        Objects.requireNonNull(text, "spec");
        int colon = text.indexOf(':');
        if (colon < 0) {
            problems.add(ConfigProblem.unplaced(USER_FLAG + " " + Messages.quote(text), "",
                    "no ':' between name and password (expected: NAME:PASSWORD)"));
            return null;
        }
        if (colon == 0) {
            problems.add(ConfigProblem.unplaced(USER_FLAG, "", "empty user name (expected: NAME:PASSWORD)"));
            return null;
        }
        return new UserConfig(text.substring(0, colon), text.substring(colon + 1));
    }

    private static String userSource(String name) {
        return USER_FLAG + " " + Messages.quote(name + ":...");
    }

    static <T> T value(String source, String key, String text, java.util.function.Function<String, T> parser,
            List<ConfigProblem> problems) {
        try {
            return parser.apply(text);
        } catch (IllegalArgumentException e) {
            problems.add(ConfigProblem.unplaced(source, key, e.getMessage()));
            return null;
        }
    }
}
