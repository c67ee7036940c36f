package dev.sluice.proxy.mirror;

import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What goes wrong with the shadow, in the log without flooding it: the shadow going down and
 * coming back once each, failed copies at most once every ten seconds with how many there were.
 * Every lane runs on the mirror's one event loop, so no lock is needed.
 */
final class ShadowProblems {

    private static final Logger log = LoggerFactory.getLogger(ShadowProblems.class);
    private static final long LOG_EVERY_NANOS = TimeUnit.SECONDS.toNanos(10);

    private final String shadow;
    private String down;
    private long failures;
    private long loggedAtNanos = System.nanoTime() - LOG_EVERY_NANOS;

    ShadowProblems(String shadow) {
        this.shadow = shadow;
    }

    void down(String reason) {
        if (down == null) {
            log.warn("mirror: cannot reach the shadow {}: {} (copies fail until it answers; tried again every second)",
                    shadow, reason);
        }
        down = reason;
    }

    void up() {
        if (down != null) {
            log.info("mirror: the shadow {} answers again", shadow);
        }
        down = null;
    }

    String downReason() {
        return "shadow down: " + down;
    }

    void failed(String reason) {
        failures++;
        long now = System.nanoTime();
        if (now - loggedAtNanos >= LOG_EVERY_NANOS) {
            log.warn("mirror: {} copies failed on the shadow {} since the last report; the last: {}", failures, shadow,
                    reason);
            failures = 0;
            loggedAtNanos = now;
        }
    }
}
