package dev.sluice.config;

import java.util.Objects;

/**
 * A MySQL account the proxy authenticates clients as, and logs into backends with. The password
 * may be empty (MySQL allows it); {@link #toString()} never shows it.
 */
public record UserConfig(String name, String password) {

    public UserConfig {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(password, "password");
        if (name.isEmpty()) {
            throw new IllegalArgumentException("name: empty (expected: a user name)");
        }
    }

    @Override
    public String toString() {
        return "UserConfig[name=" + name + ", password=" + (password.isEmpty() ? "(empty)" : "(hidden)") + "]";
    }
}
