package dev.sluice.proxy.frontend;

import dev.sluice.proxy.backend.LoginRequest;
import io.netty.channel.EventLoop;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.Promise;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * Split mode's logins answer OK only once a backend accepted the user with the schema asked for
 * (a server answers 1049 at login for an unknown database, and clients count on it), but that
 * proof needs no backend connection per login. Logins of one user and schema share it: while one
 * is under way the others wait for its outcome, and a success stands for {@link #FRESH_NANOS}.
 * A thousand clients connecting at once made a thousand backend logins before (1521-1963 backend
 * connections at the peak, docs/performance.md); now they make one. A schema dropped within
 * those seconds shows as the first statement's 1049 instead of the login's.
 */
final class SchemaProofs {

    static final long FRESH_NANOS = TimeUnit.SECONDS.toNanos(5);

    private record Key(String user, String schema) {
    }

    private static final class Proof {
        final Promise<Void> outcome;
        volatile long provenAtNanos;

        Proof(Promise<Void> outcome) {
            this.outcome = outcome;
        }

        boolean standsAt(long nowNanos) {
            return !outcome.isDone() || outcome.isSuccess() && nowNanos - provenAtNanos < FRESH_NANOS;
        }
    }

    private final ConcurrentHashMap<Key, Proof> proofs = new ConcurrentHashMap<>();

    /**
     * Completes when {@code request}'s user and schema are proven: at once after a fresh success,
     * with the outcome of one under way, or after {@code attempt} (run on {@code loop}) proves them
     * here. Listeners may run on another loop than {@code loop}.
     */
    Future<Void> prove(LoginRequest request, EventLoop loop, Function<EventLoop, Future<Void>> attempt) {
        Key key = new Key(request.user(), request.schema());
        long now = System.nanoTime();
        Proof mine = new Proof(loop.newPromise());
        Proof current = proofs.compute(key, (k, existing) -> existing != null && existing.standsAt(now) ? existing : mine);
        if (current == mine) {
            attempt.apply(loop).addListener(done -> {
                if (done.isSuccess()) {
                    mine.provenAtNanos = System.nanoTime();
                    mine.outcome.trySuccess(null);
                } else {
                    // A failure is never shared with later logins: the next one tries for itself.
                    proofs.remove(key, mine);
                    mine.outcome.tryFailure(done.cause());
                }
            });
        }
        return current.outcome;
    }
}
