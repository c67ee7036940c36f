package dev.sluice.proxy.mirror;

/**
 * One client session as the mirror follows it: the state its copies carry to the shadow, and
 * whether it is inside a transaction (its reads may see its own uncommitted writes there, which
 * the shadow cannot). Used on the session's event loop only.
 */
final class MirrorSession {

    ShadowState state;
    boolean inTransaction;
    /** Why the state is no longer known (a variable set to an expression); null while it is. */
    String unknown;

    MirrorSession(ShadowState state) {
        this.state = state;
    }
}
