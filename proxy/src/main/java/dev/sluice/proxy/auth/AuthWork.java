package dev.sluice.proxy.auth;

import dev.sluice.protocol.auth.ServerAuthExchange;
import dev.sluice.protocol.auth.ServerStep;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;

/**
 * Where logins do their private-key work (the RSA decryption of a caching_sha2 password sent
 * without TLS, about a millisecond of CPU), so that no event loop waits for it: daemon threads,
 * half the cores, shared by every login and COM_CHANGE_USER of one proxy, which closes them when
 * it stops. The queue is bounded: any client can ask for this work, unknown users included
 * (refusing them sooner would tell which users exist), so a flood of it is refused instead of
 * queued without end.
 */
public final class AuthWork implements AutoCloseable {

    /** Decryptions that may wait at once: about a second of work on one core. */
    public static final int QUEUE = 1024;

    private final ThreadPoolExecutor executor;

    public AuthWork(int threads) {
        this.executor = new ThreadPoolExecutor(threads, threads, 0, TimeUnit.MILLISECONDS, new ArrayBlockingQueue<>(QUEUE),
                Thread.ofPlatform().name("sluice-auth-", 0).daemon(true).factory(), new ThreadPoolExecutor.AbortPolicy());
    }

    /** Half the cores, at least one thread. */
    public static AuthWork forThisMachine() {
        return new AuthWork(Math.max(1, Runtime.getRuntime().availableProcessors() / 2));
    }

    /**
     * Runs the exchange's step for {@code data} on the auth threads, then {@code then} on
     * {@code loop} with the step, or with what went wrong (null step). False, running nothing,
     * when {@link #QUEUE} steps already wait (or the proxy stopped): the caller refuses the login
     * (ERR 1040).
     */
    public boolean step(ServerAuthExchange exchange, byte[] data, Executor loop, BiConsumer<ServerStep, Throwable> then) {
        try {
            CompletableFuture.supplyAsync(() -> exchange.onClientData(data), executor)
                    .whenComplete((step, failure) -> loop.execute(() -> then.accept(step,
                            failure instanceof CompletionException wrapped ? wrapped.getCause() : failure)));
            return true;
        } catch (RejectedExecutionException full) {
            return false;
        }
    }

    /** The ERR message of a login refused because {@link #step} found the queue full. */
    public static String busy() {
        return "Too many connections: " + QUEUE + " logins already wait for the proxy to decrypt their passwords";
    }

    /** The proxy stops: steps still queued are dropped (their clients are being closed). */
    @Override
    public void close() {
        executor.shutdownNow();
    }
}
