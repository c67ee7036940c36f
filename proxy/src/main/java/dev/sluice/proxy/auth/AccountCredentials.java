package dev.sluice.proxy.auth;

import dev.sluice.config.UserConfig;
import dev.sluice.protocol.auth.Credential;
import java.nio.charset.StandardCharsets;

/** What the proxy knows of a configured account's password: the password, or its native hash. */
public final class AccountCredentials {

    private AccountCredentials() {
    }

    /** The password as UTF-8, or hash stage 2 from users[].password_hash. */
    public static Credential of(UserConfig user) {
        return user.hasPassword() ? Credential.password(user.password().getBytes(StandardCharsets.UTF_8))
                : Credential.parseNativeHash(user.passwordHash());
    }
}
