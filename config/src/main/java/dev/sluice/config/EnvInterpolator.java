package dev.sluice.config;

import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Replaces {@code ${VAR}} and {@code ${VAR:-default}} in config values, as a shell would:
 * the default is used when VAR is unset or empty. <code>$${</code> writes a literal <code>${</code>,
 * so a password may contain it; any other {@code $} is kept as it is. Defaults cannot nest.
 */
final class EnvInterpolator {

    static final String EXPECTED = "${VAR} or ${VAR:-default}, VAR made of letters, digits and _";

    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    private final Map<String, String> env;

    EnvInterpolator(Map<String, String> env) {
        this.env = Map.copyOf(Objects.requireNonNull(env, "env"));
    }

    /**
     * The text with every reference replaced.
     *
     * @throws IllegalArgumentException naming the undefined variable or the malformed reference
     */
    String interpolate(String text) {
        if (text.indexOf('$') < 0) {
            return text;
        }
        StringBuilder out = new StringBuilder(text.length());
        int i = 0;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (c == '$' && text.startsWith("$${", i)) {
                out.append("${");
                i += 3;
            } else if (c == '$' && text.startsWith("${", i)) {
                int close = text.indexOf('}', i + 2);
                if (close < 0) {
                    throw new IllegalArgumentException(Messages.quote(text.substring(i))
                            + " has no closing '}' (expected: " + EXPECTED + ")");
                }
                out.append(resolve(text.substring(i + 2, close)));
                i = close + 1;
            } else {
                out.append(c);
                i++;
            }
        }
        return out.toString();
    }

    private String resolve(String reference) {
        int separator = reference.indexOf(":-");
        String name = separator < 0 ? reference : reference.substring(0, separator);
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException(Messages.quote("${" + reference + "}")
                    + " is not a variable reference (expected: " + EXPECTED + ")");
        }
        String value = env.get(name);
        if (separator >= 0 && (value == null || value.isEmpty())) {
            return reference.substring(separator + 2);
        }
        if (value == null) {
            throw new IllegalArgumentException("environment variable " + name + " is not set (expected: set "
                    + name + ", or give a default: ${" + name + ":-value})");
        }
        return value;
    }
}
