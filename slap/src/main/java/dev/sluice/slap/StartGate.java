package dev.sluice.slap;

import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * Holds a phase's clients until the clock starts, then lets them all go at once, as mysqlslap's
 * pthread_cond_broadcast does. A CountDownLatch wakes its waiters one after the other, each woken
 * thread waking the next when it first runs; with every woken client busy connecting on two cores
 * shared with the server, the last of 25 clients started tens of milliseconds into the timed
 * phase. Here the thread that opens the gate wakes every client itself.
 */
final class StartGate {

    private volatile boolean open;

    /** Waits for {@link #open}; what the opener wrote before opening is visible after. */
    void await() throws InterruptedException {
        while (!open) {
            LockSupport.park(this);
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
        }
    }

    /** Opens the gate and wakes {@code waiting} (a thread not yet waiting finds it open). */
    void open(List<Thread> waiting) {
        open = true;
        for (Thread thread : waiting) {
            LockSupport.unpark(thread);
        }
    }
}
