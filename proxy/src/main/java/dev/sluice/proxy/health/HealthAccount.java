package dev.sluice.proxy.health;

import dev.sluice.config.HealthConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.config.UserConfig;
import java.util.Optional;

/** Who the health checks log in as. */
public final class HealthAccount {

    private HealthAccount() {
    }

    /**
     * health.user, else the first of users with a password (one known only by its password_hash
     * cannot log in before a client has); empty when there is none.
     */
    public static Optional<UserConfig> of(SluiceConfig config) {
        HealthConfig health = config.health();
        if (health.user().isPresent()) {
            return Optional.of(new UserConfig(health.user().get(), health.password().orElse("")));
        }
        return config.users().stream().filter(UserConfig::hasPassword).findFirst();
    }
}
