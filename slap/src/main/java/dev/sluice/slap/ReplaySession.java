package dev.sluice.slap;

import java.sql.SQLException;
import java.util.concurrent.locks.LockSupport;

/**
 * One captured session played on its own connection: statements in their captured order (as the
 * feed hands them over), each when its captured offset from the session's first statement
 * (divided by the speed) has passed. The connection opens when the first statement is due, as the
 * session was opened ({@link ReplayConnector#open(ReplayPlan.Session, ReplayNotes)}), and closes
 * after the last. Errors are counted and the session goes on, as the original did. Every
 * statement of the session is taken from the feed, played or not.
 */
final class ReplaySession implements Runnable {

    private final ReplayPlan.Session plan;
    private final ReplayFeed feed;
    private final ReplayConnector connector;
    private final double speed;
    private final long dueNanos;
    private final ErrorTally errors;
    private final ReplayNotes notes;
    private final ReplayTally tally = new ReplayTally();

    /** @param dueNanos when (System.nanoTime) the first statement is due at the earliest */
    ReplaySession(ReplayPlan.Session plan, ReplayFeed feed, ReplayConnector connector, double speed, long dueNanos,
                  ErrorTally errors, ReplayNotes notes) {
        this.plan = plan;
        this.feed = feed;
        this.connector = connector;
        this.speed = speed;
        this.dueNanos = dueNanos;
        this.errors = errors;
        this.notes = notes;
    }

    ReplayTally tally() {
        return tally;
    }

    static String key(CapturedEvent event) {
        return event.command() + "|" + event.digestKey();
    }

    @Override
    public void run() {
        ReplayFeed.Inbox inbox = feed.inbox(plan.id);
        waitUntil(dueNanos);
        inbox.start();
        long start = Math.max(System.nanoTime(), dueNanos);
        try {
            StatementPlayer player;
            try {
                player = new StatementPlayer(connector.open(plan, notes), false);
            } catch (SQLException e) {
                errors.add(Connector.errorKey(e), "connect: " + Connector.firstLine(e.getMessage()));
                skip(inbox, 0, "the session could not connect");
                return;
            }
            try (player) {
                for (long i = 0; i < plan.statements; i++) {
                    CapturedEvent event = feed.next(inbox);
                    if (event == null) {
                        skipUnread(plan.statements - i);
                        return;
                    }
                    if (speed > 0) {
                        waitUntil(start + (long) ((event.timeMicros() - plan.firstMicros) * 1000 / speed));
                    }
                    if (!play(player, event)) {
                        skip(inbox, i + 1, "the connection was lost");
                        return;
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Takes the session's statements from {@code done} on without playing them. */
    private void skip(ReplayFeed.Inbox inbox, long done, String reason) throws InterruptedException {
        for (long i = done; i < plan.statements; i++) {
            if (feed.next(inbox) == null) {
                skipUnread(plan.statements - i);
                return;
            }
            tally.notReplayed(reason);
        }
    }

    private void skipUnread(long left) {
        for (long i = 0; i < left; i++) {
            tally.notReplayed("not read: " + feed.failure());
        }
    }

    /** Plays one statement; false when the connection is gone. */
    private boolean play(StatementPlayer player, CapturedEvent event) {
        String reason = player.unplayable(event);
        if (reason != null) {
            tally.notReplayed(event.command() + ": " + reason);
            return true;
        }
        StatementPlayer.Played played = player.play(event);
        if (played.result().errorKey != null) {
            errors.add(played.result().errorKey, played.result().error);
        }
        tally.replayed(key(event), event.command(), played.micros());
        return !played.lost();
    }

    private static void waitUntil(long deadline) {
        long left;
        while ((left = deadline - System.nanoTime()) > 0 && !Thread.currentThread().isInterrupted()) {
            LockSupport.parkNanos(left);
        }
    }
}
