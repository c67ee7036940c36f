package dev.sluice.config;

import java.util.Locale;
import java.util.Objects;

/**
 * A MySQL account the proxy authenticates clients as, and logs into backends with. It has either
 * its password (may be empty, as MySQL allows) or only its mysql_native_password hash
 * ({@code *} and 40 hex digits, as {@code SELECT PASSWORD('x')} or mysql.user gives it), never
 * both; {@link #toString()} shows neither.
 *
 * @param password     the password, or null when only the hash is given
 * @param passwordHash the hash in upper case, or null when the password is given
 */
public record UserConfig(String name, String password, String passwordHash) {

    /** What a password_hash looks like, for error messages. */
    public static final String HASH_SHAPE = "* and 40 hex digits, as SELECT PASSWORD('...') or"
            + " mysql.user's authentication_string gives it";

    public UserConfig {
        Objects.requireNonNull(name, "name");
        if (name.isEmpty()) {
            throw new IllegalArgumentException("name: empty (expected: a user name)");
        }
        if ((password == null) == (passwordHash == null)) {
            throw new IllegalArgumentException(password == null ? "no password (expected: password or password_hash)"
                    : "both password and password_hash (expected: one of them)");
        }
        if (passwordHash != null) {
            passwordHash = checkHash(passwordHash);
        }
    }

    /** An account with its password. */
    public UserConfig(String name, String password) {
        this(name, Objects.requireNonNull(password, "password"), null);
    }

    /** An account known only by its mysql_native_password hash. */
    public static UserConfig withPasswordHash(String name, String passwordHash) {
        return new UserConfig(name, null, Objects.requireNonNull(passwordHash, "passwordHash"));
    }

    /** True when the password itself is known; false when only its hash is. */
    public boolean hasPassword() {
        return password != null;
    }

    /**
     * The hash in upper case.
     *
     * @throws IllegalArgumentException saying what is wrong with its shape, never showing it
     */
    static String checkHash(String hash) {
        String problem = hash.length() != 41 ? hash.length() + " characters long"
                : hash.charAt(0) != '*' ? "does not start with *"
                : hash.substring(1).chars().allMatch(c -> Character.digit(c, 16) >= 0) ? null
                : "has a character that is not a hex digit";
        if (problem != null) {
            throw new IllegalArgumentException("not a mysql_native_password hash: " + problem + " (expected: " + HASH_SHAPE + ")");
        }
        return hash.toUpperCase(Locale.ROOT);
    }

    @Override
    public String toString() {
        String secret = password == null ? "password_hash=(hidden)"
                : "password=" + (password.isEmpty() ? "(empty)" : "(hidden)");
        return "UserConfig[name=" + name + ", " + secret + "]";
    }
}
