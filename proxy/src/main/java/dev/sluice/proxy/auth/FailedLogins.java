package dev.sluice.proxy.auth;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.net.InetAddress;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Failed logins in a row per client address. Past a threshold, the answer to every further login
 * from that address waits, successful or not (as MySQL's connection_control plugin): a guesser who
 * could tell a success by its speed would hang up on every slow answer. The wait grows by a second
 * per failure, up to ten; a success from the address ends it.
 */
public final class FailedLogins {

    private static final Logger log = LoggerFactory.getLogger(FailedLogins.class);
    static final Duration STEP = Duration.ofSeconds(1);
    static final Duration MAX_DELAY = Duration.ofSeconds(10);

    private final int threshold;
    /** Bounded, so that a spread of addresses cannot grow it without end; forgotten after a quiet spell. */
    private final Cache<InetAddress, AtomicInteger> inARow = Caffeine.newBuilder()
            .maximumSize(100_000)
            .expireAfterAccess(Duration.ofMinutes(15))
            .build();

    /** @param threshold failures in a row before answers wait; 0 never delays */
    public FailedLogins(int threshold) {
        this.threshold = threshold;
    }

    /** How long the answer to a login from {@code address} waits, whatever it is. */
    public Duration delayFor(InetAddress address) {
        if (threshold == 0 || address == null) {
            return Duration.ZERO;
        }
        AtomicInteger failures = inARow.getIfPresent(address);
        int over = failures == null ? -1 : failures.get() - threshold;
        return over < 0 ? Duration.ZERO : min(STEP.multipliedBy(over + 1L), MAX_DELAY);
    }

    public void failed(InetAddress address) {
        if (threshold == 0 || address == null) {
            return;
        }
        int now = inARow.get(address, a -> new AtomicInteger()).incrementAndGet();
        if (now == threshold) {
            log.warn("{} failed logins in a row from {}: each further login from there is answered after a delay"
                    + " (limits.failed_logins_before_delay)", now, address.getHostAddress());
        }
    }

    public void succeeded(InetAddress address) {
        if (address != null) {
            inARow.invalidate(address);
        }
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }
}
