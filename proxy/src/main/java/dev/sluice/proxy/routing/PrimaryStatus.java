package dev.sluice.proxy.routing;

import dev.sluice.proxy.backend.Backend;
import java.util.function.Consumer;

/**
 * What the health checks found of the {@code role: auto} backends that statements must know when
 * they find no primary (why none takes writes: two are writable, none is), and where a session
 * reports a write refused as read_only by the backend taken for the primary (the checks look
 * again at once). Written by the health checks' loop, read by every session's.
 */
public final class PrimaryStatus {

    /** Why no role auto backend takes writes now (two writable, none), or null. */
    private volatile String noPrimaryReason;
    /** More than one role auto backend is writable and none is preferred: writes stop. */
    private volatile boolean splitBrain;
    /** The health checks' handler of a read_only refusal; theirs to install. */
    private volatile Consumer<Backend> readOnlySeen = backend -> { };

    /** Why no {@code role: auto} backend takes writes now, or null when one does (or none is auto). */
    public String noPrimaryReason() {
        return noPrimaryReason;
    }

    /** Whether more than one role auto backend is writable now, none preferred (writes stop). */
    public boolean splitBrain() {
        return splitBrain;
    }

    /** The health checks' verdict: {@code reason} null when a primary takes writes. */
    public void noPrimary(String reason, boolean splitBrain) {
        this.noPrimaryReason = reason;
        this.splitBrain = splitBrain;
    }

    /**
     * A {@code role: auto} backend taken for the primary refused a write with
     * ER_OPTION_PREVENTS_STATEMENT (read_only): the health checks take it for a replica at once and
     * check every backend again.
     */
    public void readOnlySeen(Backend backend) {
        readOnlySeen.accept(backend);
    }

    public void onReadOnlySeen(Consumer<Backend> handler) {
        this.readOnlySeen = handler;
    }
}
