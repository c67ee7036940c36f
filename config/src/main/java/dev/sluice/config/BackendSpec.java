package dev.sluice.config;

import java.util.List;

/** One {@code --backend} flag while it is read; its name may still be chosen by {@link QuickStart}. */
final class BackendSpec {

    final String source;
    HostPort address;
    String name;
    BackendConfig.Role role = BackendConfig.Role.PRIMARY;
    int weight = BackendConfig.DEFAULT_WEIGHT;
    int maxConnections = BackendConfig.DEFAULT_MAX_CONNECTIONS;

    BackendSpec(String source) {
        this.source = source;
    }

    void set(String key, String value, List<ConfigProblem> problems) {
        switch (key) {
            case "role" -> {
                BackendConfig.Role parsed = QuickStart.value(source, key, value,
                        v -> Messages.parseConfigName(BackendConfig.Role.class, v), problems);
                role = parsed == null ? role : parsed;
            }
            case "weight" -> {
                Integer parsed = QuickStart.value(source, key, value, v -> Scalars.integer(v, 0, Integer.MAX_VALUE), problems);
                weight = parsed == null ? weight : parsed;
            }
            case "max_connections" -> {
                Integer parsed = QuickStart.value(source, key, value, v -> Scalars.integer(v, 1, Integer.MAX_VALUE), problems);
                maxConnections = parsed == null ? maxConnections : parsed;
            }
            case "name" -> name = QuickStart.value(source, key, value, Scalars::name, problems);
            default -> throw new IllegalArgumentException("option " + key + " is not one of " + QuickStart.BACKEND_OPTIONS);
        }
    }

    BackendConfig build(String chosenName) {
        return new BackendConfig(chosenName, address, role, weight, maxConnections);
    }
}
