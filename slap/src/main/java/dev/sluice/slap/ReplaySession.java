package dev.sluice.slap;

import java.sql.SQLException;
import java.util.concurrent.locks.LockSupport;

/**
 * One captured session played on its own connection: statements in their captured order (as the
 * feed hands them over), each when its captured offset from the session's first statement
 * (divided by the speed) has passed. The connection opens as the session was opened
 * ({@link ReplayConnector#open(ReplayPlan.Session, ReplayNotes)}) a little before the first
 * statement is due (the capture starts at the first statement, after the login), and closes after
 * the last. Before each statement (before connecting, for the first) the session waits until as
 * many statements have been replayed as had ended in the capture when that statement began, so
 * that at any speed it finds done what it found done (the schema it logs into, the table it fills,
 * the rows it reads) and does not run ahead of what ran before it (a DROP at the end of a setup
 * session). Only when every session has a client (--concurrency preserve): with N clients a session
 * would wait for one that waits for a client behind it, so sessions then run each as a whole, in
 * the order they began. Errors are counted and the session goes on, as
 * the original did. Every statement of the session is taken from the feed, played or not.
 */
final class ReplaySession implements Runnable {

    /** How long before its first statement a session connects. */
    static final long CONNECT_AHEAD_NANOS = java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(500);

    private final ReplayPlan.Session plan;
    private final ReplayFeed feed;
    private final ReplayConnector connector;
    private final double speed;
    private final long dueNanos;
    private final ErrorTally errors;
    private final ReplayNotes notes;
    private final ReplayProgress progress;
    private final ReplayTally tally = new ReplayTally();

    /**
     * @param dueNanos when (System.nanoTime) the first statement is due at the earliest
     * @param progress the statements taken so far, to keep the capture's order; null not to
     */
    ReplaySession(ReplayPlan.Session plan, ReplayFeed feed, ReplayConnector connector, double speed, long dueNanos,
                  ErrorTally errors, ReplayNotes notes, ReplayProgress progress) {
        this.plan = plan;
        this.feed = feed;
        this.connector = connector;
        this.speed = speed;
        this.dueNanos = dueNanos;
        this.errors = errors;
        this.notes = notes;
        this.progress = progress;
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
        // Later than due when all clients were busy (--concurrency N): the pauses count from then.
        long start = Math.max(System.nanoTime(), dueNanos);
        waitUntil(start - CONNECT_AHEAD_NANOS);
        try {
            ReplayFeed.Fed first = feed.next(inbox);
            if (first == null) {
                skipUnread(plan.statements);
                return;
            }
            // Before connecting: the login itself may need what others did first (the schema).
            follow(first.endedBefore());
            StatementPlayer player;
            try {
                player = new StatementPlayer(connector.open(plan, notes), false);
            } catch (SQLException e) {
                inbox.start();
                errors.add(Connector.errorKey(e), "connect: " + Connector.firstLine(e.getMessage()));
                tally.notReplayed("the session could not connect");
                took();
                skip(inbox, 1, "the session could not connect");
                return;
            }
            inbox.start();
            try (player) {
                ReplayFeed.Fed fed = first;
                for (long i = 0; i < plan.statements; i++) {
                    if (i > 0) {
                        fed = feed.next(inbox);
                        if (fed == null) {
                            skipUnread(plan.statements - i);
                            return;
                        }
                        follow(fed.endedBefore());
                    }
                    CapturedEvent event = fed.event();
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

    /** Waits until what had ended in the capture before the next statement began is replayed too. */
    private void follow(long endedBefore) throws InterruptedException {
        if (progress == null) {
            return;
        }
        switch (progress.awaitTaken(endedBefore)) {
            case NONE -> { }
            case OVERDUE -> notes.add("went on before statements that had ended before its next one in the capture:"
                    + " one of them ran long, likely waiting for a lock this session holds");
            case NO_PROGRESS -> notes.add("went on after "
                    + java.util.concurrent.TimeUnit.NANOSECONDS.toSeconds(ReplayProgress.STALL_NANOS)
                    + " s without progress while waiting for statements that had ended before its next one in the"
                    + " capture");
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
            took();
        }
    }

    private void skipUnread(long left) {
        for (long i = 0; i < left; i++) {
            tally.notReplayed("not read: " + feed.failure());
            took();
        }
    }

    private void took() {
        if (progress != null) {
            progress.took();
        }
    }

    /** Plays one statement; false when the connection is gone. */
    private boolean play(StatementPlayer player, CapturedEvent event) {
        if (progress != null) {
            progress.playing(this, event.durationMicros());
        }
        try {
            return playCounted(player, event);
        } finally {
            if (progress != null) {
                progress.played(this);
            }
            took();
        }
    }

    private boolean playCounted(StatementPlayer player, CapturedEvent event) {
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
