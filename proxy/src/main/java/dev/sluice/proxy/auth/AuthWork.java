package dev.sluice.proxy.auth;

import dev.sluice.protocol.auth.ServerAuthExchange;
import dev.sluice.protocol.auth.ServerStep;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.function.BiConsumer;

/**
 * Where logins do their private-key work (the RSA decryption of a caching_sha2 password sent
 * without TLS, about a millisecond of CPU), so that no event loop waits for it: daemon threads,
 * half the cores, shared by every login and COM_CHANGE_USER.
 */
public final class AuthWork {

    private static final Executor EXECUTOR = Executors.newFixedThreadPool(
            Math.max(1, Runtime.getRuntime().availableProcessors() / 2),
            Thread.ofPlatform().name("sluice-auth-", 0).daemon(true).factory());

    private AuthWork() {
    }

    /**
     * Runs the exchange's step for {@code data} on the auth threads, then {@code then} on
     * {@code loop} with the step, or with what went wrong (null step).
     */
    public static void step(ServerAuthExchange exchange, byte[] data, Executor loop,
                            BiConsumer<ServerStep, Throwable> then) {
        CompletableFuture.supplyAsync(() -> exchange.onClientData(data), EXECUTOR)
                .whenComplete((step, failure) -> loop.execute(() -> then.accept(step,
                        failure instanceof CompletionException wrapped ? wrapped.getCause() : failure)));
    }
}
