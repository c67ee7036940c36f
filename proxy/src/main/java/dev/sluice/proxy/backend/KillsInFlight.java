package dev.sluice.proxy.backend;

/**
 * KILL QUERY statements sent for one connection's thread that the server has not answered: until
 * it has, the connection must not run another session's statement, which a late KILL would
 * interrupt. A release meanwhile waits here and runs when the last answer comes. Event loop only.
 */
final class KillsInFlight {

    private int pending;
    private Runnable afterKills;

    void started() {
        pending++;
    }

    void ended() {
        if (--pending == 0 && afterKills != null) {
            Runnable release = afterKills;
            afterKills = null;
            release.run();
        }
    }

    /** Whether {@code release} must wait for the server to answer a KILL; if so it runs then. */
    boolean holdRelease(Runnable release) {
        if (pending == 0) {
            return false;
        }
        afterKills = release;
        return true;
    }
}
