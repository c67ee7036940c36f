package dev.sluice.proxy.mirror;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * What a client session had set, as far as the shadow needs it to give the same answer: the
 * default schema and the session variables it set to literal values (SET NAMES and CHARACTER SET
 * among them, kept under the names {@code names} and {@code character set}). Immutable; a change
 * makes a new one.
 *
 * @param schema    the default schema, or null for none
 * @param variables values as written, by lower-case name
 */
record ShadowState(String schema, Map<String, String> variables) {

    static final ShadowState NONE = new ShadowState(null, Map.of());

    private static final String NAMES = "names";
    private static final String CHARACTER_SET = "character set";
    /** What SET NAMES and SET CHARACTER SET set, so a later one replaces them. */
    private static final Set<String> CHARSET_VARIABLES = Set.of("character_set_client", "character_set_connection",
            "character_set_results", "collation_connection", NAMES, CHARACTER_SET);
    /** The shadow connections' own login character set: where a variable left unset goes back to. */
    private static final String LOGIN_NAMES = "SET NAMES utf8mb4 COLLATE utf8mb4_general_ci";

    ShadowState {
        variables = Map.copyOf(variables);
    }

    ShadowState withSchema(String newSchema) {
        return new ShadowState(newSchema, variables);
    }

    ShadowState with(String name, String value) {
        String key = name.toLowerCase(Locale.ROOT);
        Map<String, String> changed = new TreeMap<>(variables);
        if (key.equals(NAMES) || key.equals(CHARACTER_SET)) {
            changed.keySet().removeAll(CHARSET_VARIABLES);
        }
        changed.put(key, value);
        return new ShadowState(schema, changed);
    }

    /**
     * The statements that take a connection whose variables are {@code from}'s to this state's:
     * character sets first (SET NAMES resets the others), then the rest; a variable this state
     * does not have goes back to its default. The schema is not among them (COM_INIT_DB).
     */
    List<String> setFrom(ShadowState from) {
        List<String> first = new ArrayList<>();
        List<String> then = new ArrayList<>();
        boolean charsetChanged = !Objects.equals(from.variables.get(NAMES), variables.get(NAMES))
                || !Objects.equals(from.variables.get(CHARACTER_SET), variables.get(CHARACTER_SET));
        if (charsetChanged) {
            first.add(variables.containsKey(NAMES) ? "SET NAMES " + variables.get(NAMES)
                    : variables.containsKey(CHARACTER_SET) ? "SET CHARACTER SET " + variables.get(CHARACTER_SET)
                    : LOGIN_NAMES);
        }
        for (Map.Entry<String, String> e : variables.entrySet()) {
            String name = e.getKey();
            if (name.equals(NAMES) || name.equals(CHARACTER_SET)) {
                continue;
            }
            boolean resetByNames = charsetChanged && CHARSET_VARIABLES.contains(name);
            if (resetByNames || !e.getValue().equals(from.variables.get(name))) {
                then.add("SET SESSION " + name + " = " + e.getValue());
            }
        }
        for (String name : from.variables.keySet()) {
            boolean setByNames = name.equals(NAMES) || name.equals(CHARACTER_SET)
                    || (charsetChanged && CHARSET_VARIABLES.contains(name));
            if (!variables.containsKey(name) && !setByNames) {
                then.add("SET SESSION " + name + " = DEFAULT");
            }
        }
        first.addAll(then);
        return first;
    }
}
