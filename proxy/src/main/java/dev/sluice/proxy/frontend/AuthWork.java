package dev.sluice.proxy.frontend;

import java.util.concurrent.Executor;
import java.util.concurrent.Executors;

/**
 * Where logins do their private-key work (the RSA decryption of a caching_sha2 password sent
 * without TLS, about a millisecond of CPU), so that no event loop waits for it: daemon threads,
 * half the cores, shared by every login and COM_CHANGE_USER.
 */
public final class AuthWork {

    public static final Executor EXECUTOR = Executors.newFixedThreadPool(
            Math.max(1, Runtime.getRuntime().availableProcessors() / 2),
            Thread.ofPlatform().name("sluice-auth-", 0).daemon(true).factory());

    private AuthWork() {
    }
}
