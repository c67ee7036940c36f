package dev.sluice.slap;

import java.nio.file.Path;
import java.util.Locale;

/**
 * What {@code slap --replay} needs.
 *
 * @param file        a jsonl capture
 * @param speed       how much faster than captured the pauses pass (2: half as long); 0 for max (no pauses)
 * @param concurrency at most this many captured sessions at once; 0 keeps each session at its captured start
 * @param users       which account each captured user replays as ({@link UserMap#NONE}: the command line's)
 * @param compare     {@code --compare}: a second server to play every statement on and compare; null for none
 * @param jsonFile    with {@code compare}: the comparison as JSON, or null
 * @param htmlFile    with {@code compare}: the comparison as a page, or null
 */
public record ReplayOptions(Path file, double speed, int concurrency, ConnectionOptions connection,
                            ClientThreads clientThreads, UserMap users, ConnectionOptions compare, Path jsonFile,
                            Path htmlFile) {

    public static final int PRESERVE = 0;
    public static final double MAX_SPEED = 0;

    public ReplayOptions {
        if (!(speed >= 0) || Double.isInfinite(speed)) {
            throw new SlapException("--speed: " + speed + " (expected: a factor > 0, or max)", 1);
        }
        if (users == null) {
            users = UserMap.NONE;
        }
        if (compare != null && concurrency != PRESERVE) {
            throw new SlapException("--compare plays one statement at a time in the capture's order: --concurrency"
                    + " does not apply to it", 1);
        }
        if (compare == null && (jsonFile != null || htmlFile != null)) {
            throw new SlapException("--json and --report-html with --replay need --compare (a replay alone prints"
                    + " its report)", 1);
        }
        if (concurrency < 0) {
            throw new SlapException("--concurrency: " + concurrency + " (expected: preserve or a client count >= 1)", 1);
        }
    }

    /** {@code 1.0}, {@code 2}, {@code 0.5}, or {@code max}. */
    static double parseSpeed(String value) {
        String v = value.strip().toLowerCase(Locale.ROOT);
        if (v.equals("max")) {
            return MAX_SPEED;
        }
        try {
            double speed = Double.parseDouble(v);
            if (speed > 0 && !Double.isInfinite(speed)) {
                return speed;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new SlapException("--speed: '" + value + "' (expected: a factor > 0 such as 1.0 or 10, or max)", 1);
    }

    /** {@code preserve} or a client count. */
    static int parseConcurrency(String value) {
        if (value.strip().equalsIgnoreCase("preserve")) {
            return PRESERVE;
        }
        try {
            int clients = Integer.parseInt(value.strip());
            if (clients >= 1) {
                return clients;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new SlapException("--concurrency: '" + value + "' (expected with --replay: preserve, or a client count >= 1)", 1);
    }

    /** Without a user map, a second server or report files. */
    public ReplayOptions(Path file, double speed, int concurrency, ConnectionOptions connection,
                         ClientThreads clientThreads) {
        this(file, speed, concurrency, connection, clientThreads, UserMap.NONE, null, null, null);
    }

    String describeSpeed() {
        return speed == MAX_SPEED ? "max" : String.valueOf(speed);
    }

    String describeConcurrency() {
        return concurrency == PRESERVE ? "preserve" : String.valueOf(concurrency);
    }
}
