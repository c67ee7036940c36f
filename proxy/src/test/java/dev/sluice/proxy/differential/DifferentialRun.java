package dev.sluice.proxy.differential;

import java.util.concurrent.Callable;

/** One plan on one target, through one kind of client; its call returns the transcript. */
interface DifferentialRun extends Callable<Transcript> {

    /** Gives up on the session: its socket is closed, so a read that waits fails now. */
    void abort(String why);

    /** What was seen so far, for a session whose thread never came back. */
    Transcript transcript(String abort);

    int currentStep();
}
