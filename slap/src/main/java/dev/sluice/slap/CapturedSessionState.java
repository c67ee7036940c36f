package dev.sluice.slap;

import java.util.Map;

/**
 * What a capture says about a session on its first line ({@code session_state}): how to open it
 * again as it was.
 *
 * @param login       the session logged in while capture ran, so everything it did is in the file
 * @param collationId the collation its login asked for, or -1 when not captured
 * @param variables   the session variables it had set by its first captured statement; null when
 *                    the proxy did not follow them (session mode)
 */
public record CapturedSessionState(boolean login, int collationId, Map<String, String> variables) {

    public CapturedSessionState {
        variables = variables == null ? null : Map.copyOf(variables);
    }

    @SuppressWarnings("unchecked")
    static CapturedSessionState of(Object value) {
        if (value == null) {
            return null;
        }
        if (!(value instanceof Map<?, ?> fields) || !(fields.get("login") instanceof Boolean login)) {
            throw new IllegalArgumentException("\"session_state\": found " + value
                    + " (expected: an object with login, collation_id and variables)");
        }
        Object collation = fields.get("collation_id");
        if (collation != null && !(collation instanceof Long)) {
            throw new IllegalArgumentException("\"session_state\".\"collation_id\": found " + collation
                    + " (expected: a whole number)");
        }
        Object variables = fields.get("variables");
        if (variables != null && !(variables instanceof Map<?, ?> map
                && map.values().stream().allMatch(v -> v instanceof String))) {
            throw new IllegalArgumentException("\"session_state\".\"variables\": found " + variables
                    + " (expected: an object of names and text values, or null)");
        }
        return new CapturedSessionState(login, collation == null ? -1 : ((Long) collation).intValue(),
                (Map<String, String>) variables);
    }
}
