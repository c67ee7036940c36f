package dev.sluice.proxy.auth;

import dev.sluice.config.SluiceConfig;
import dev.sluice.config.UserConfig;
import dev.sluice.protocol.auth.AuthPlugins;
import dev.sluice.protocol.auth.RsaKeys;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * What the proxy checks its clients' passwords with, at login and at COM_CHANGE_USER: its
 * accounts (the live config's users), the auth plugins, its RSA key pair, the users that may use
 * caching_sha2_password fast authentication, the threads that decrypt passwords off the event
 * loops, and the delays after failed logins.
 */
public final class ClientAuth {

    private final Supplier<SluiceConfig> config;
    private final AuthPlugins plugins;
    private final RsaKeys rsaKeys;
    private final AuthWork work;
    private final FailedLogins failedLogins;
    /**
     * Users who passed caching_sha2_password full authentication since this proxy started: like
     * MySQL's cache, later logins may use fast authentication. Per proxy, as MySQL's is per server
     * process, so a proxy started again asks for full authentication again.
     */
    private final Set<String> sha2Cache = ConcurrentHashMap.newKeySet();

    public ClientAuth(Supplier<SluiceConfig> config, AuthPlugins plugins, RsaKeys rsaKeys, AuthWork work,
                      FailedLogins failedLogins) {
        this.config = config;
        this.plugins = plugins;
        this.rsaKeys = rsaKeys;
        this.work = work;
        this.failedLogins = failedLogins;
    }

    /** The account named {@code name}, as the config says now. */
    public Optional<UserConfig> user(String name) {
        return config.get().user(name);
    }

    public AuthPlugins plugins() {
        return plugins;
    }

    public RsaKeys rsaKeys() {
        return rsaKeys;
    }

    /** Where RSA-encrypted passwords are decrypted, off the event loops. */
    public AuthWork work() {
        return work;
    }

    /** Failed logins in a row per client address, and how long each next answer there waits. */
    public FailedLogins failedLogins() {
        return failedLogins;
    }

    /** User names that may log in with caching_sha2_password fast authentication. */
    public Set<String> sha2Cache() {
        return sha2Cache;
    }
}
