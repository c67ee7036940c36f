package dev.sluice.proxy.stats;

import java.util.concurrent.atomic.LongAdder;

/** Proxy-wide counters (per-backend figures live on each Backend). */
public final class ProxyStats {

    private final LongAdder connectionsAccepted = new LongAdder();
    private final LongAdder connectionsRefused = new LongAdder();
    private final LongAdder loginFailures = new LongAdder();
    private final LongAdder protocolErrors = new LongAdder();
    private final LongAdder primaryWaits = new LongAdder();
    private final LongAdder primaryWaitTimeouts = new LongAdder();
    private final LongAdder splitBrainRefusals = new LongAdder();
    private final LongAdder readOnlyRetries = new LongAdder();
    private final LongAdder lostWritesRetried = new LongAdder();
    private final LongAdder lostWritesUnknown = new LongAdder();
    private final LongAdder transactionsReplayed = new LongAdder();
    private final LongAdder transactionReplaysFailed = new LongAdder();

    public void accepted() {
        connectionsAccepted.increment();
    }

    public void refused() {
        connectionsRefused.increment();
    }

    public void loginFailed() {
        loginFailures.increment();
    }

    public void protocolError() {
        protocolErrors.increment();
    }

    public long connectionsAccepted() {
        return connectionsAccepted.sum();
    }

    public long connectionsRefused() {
        return connectionsRefused.sum();
    }

    public long loginFailures() {
        return loginFailures.sum();
    }

    public long protocolErrors() {
        return protocolErrors.sum();
    }

    /** A statement found no backend to run on and waited for one (timeouts.primary_wait). */
    public void primaryWaited() {
        primaryWaits.increment();
    }

    /** A wait for a backend ended without one: the statement failed. */
    public void primaryWaitTimedOut() {
        primaryWaitTimeouts.increment();
    }

    /** A statement failed for want of a primary while more than one role auto backend was writable. */
    public void splitBrainRefused() {
        splitBrainRefusals.increment();
    }

    /** A write refused as read_only by the backend taken for the primary, sent again to the next one. */
    public void readOnlyRetried() {
        readOnlyRetries.increment();
    }

    /** A write lost with its connection, shown not to have run, and sent again. */
    public void lostWriteRetried() {
        lostWritesRetried.increment();
    }

    /** A write lost with its connection whose outcome could not be known: the client got an error. */
    public void lostWriteUnknown() {
        lostWritesUnknown.increment();
    }

    /** A transaction lost with its connection ran again on a new one, every answer the same (transaction_replay). */
    public void transactionReplayed() {
        transactionsReplayed.increment();
    }

    /** A transaction lost with its connection could not run again the same: its session ended. */
    public void transactionReplayFailed() {
        transactionReplaysFailed.increment();
    }

    public long transactionsReplayed() {
        return transactionsReplayed.sum();
    }

    public long transactionReplaysFailed() {
        return transactionReplaysFailed.sum();
    }

    public long primaryWaits() {
        return primaryWaits.sum();
    }

    public long primaryWaitTimeouts() {
        return primaryWaitTimeouts.sum();
    }

    /** Writes that failed because more than one role auto backend was writable, none preferred. */
    public long splitBrainRefusals() {
        return splitBrainRefusals.sum();
    }

    public long readOnlyRetries() {
        return readOnlyRetries.sum();
    }

    public long lostWritesRetried() {
        return lostWritesRetried.sum();
    }

    public long lostWritesUnknown() {
        return lostWritesUnknown.sum();
    }
}
