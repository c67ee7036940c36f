package dev.sluice.protocol.auth;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** The auth plugins one side knows, keyed by their wire names. */
public final class AuthPlugins {

    private final Map<String, AuthPlugin> byName;

    private AuthPlugins(Map<String, AuthPlugin> byName) {
        this.byName = Collections.unmodifiableMap(byName);
    }

    /** mysql_native_password and caching_sha2_password. */
    public static AuthPlugins standard() {
        return of(new MysqlNativePassword(), new CachingSha2Password());
    }

    public static AuthPlugins of(AuthPlugin... plugins) {
        Map<String, AuthPlugin> byName = new LinkedHashMap<>();
        for (AuthPlugin plugin : plugins) {
            if (byName.putIfAbsent(plugin.name(), plugin) != null) {
                throw new IllegalArgumentException("auth plugin '" + plugin.name() + "' given twice");
            }
        }
        return new AuthPlugins(byName);
    }

    public Optional<AuthPlugin> find(String name) {
        return Optional.ofNullable(byName.get(name));
    }

    /** @throws IllegalArgumentException naming the plugins there are, when there is none called {@code name} */
    public AuthPlugin require(String name) {
        AuthPlugin plugin = byName.get(name);
        if (plugin == null) {
            throw new IllegalArgumentException("auth plugin '" + name + "' is not supported (supported: "
                    + String.join(", ", byName.keySet()) + ")");
        }
        return plugin;
    }

    public Set<String> names() {
        return byName.keySet();
    }
}
