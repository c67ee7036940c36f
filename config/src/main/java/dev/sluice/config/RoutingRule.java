package dev.sluice.config;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A routing rule: statements whose text matches {@code match} (a regular expression, searched
 * anywhere in the statement) or whose digest is {@code digest} (16 hex digits, as the stats show
 * it: the one digest of the statement, which stats and capture show too) go to {@code route},
 * whatever the classifier says.
 */
public record RoutingRule(Pattern match, String digest, Route route) {

    public enum Route {
        PRIMARY, REPLICA;

        public String configName() {
            return Messages.configName(this);
        }
    }

    public RoutingRule {
        Objects.requireNonNull(route, "route");
        if ((match == null) == (digest == null)) {
            throw new IllegalArgumentException("a rule needs exactly one of match and digest");
        }
        if (digest != null && !digest.matches("[0-9a-fA-F]{16}")) {
            throw new IllegalArgumentException("digest: " + Messages.quote(digest) + " (expected: 16 hex digits)");
        }
        // Stats print digests in upper case, as pt-query-digest prints its checksums.
        digest = digest == null ? null : digest.toUpperCase(java.util.Locale.ROOT);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof RoutingRule rule && route == rule.route && Objects.equals(digest, rule.digest)
                && Objects.equals(match == null ? null : match.pattern(), rule.match == null ? null : rule.match.pattern());
    }

    @Override
    public int hashCode() {
        return Objects.hash(match == null ? null : match.pattern(), digest, route);
    }
}
