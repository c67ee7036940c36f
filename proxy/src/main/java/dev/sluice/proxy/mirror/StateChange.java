package dev.sluice.proxy.mirror;

import dev.sluice.protocol.checksum.AnswerChecksum;
import dev.sluice.proxy.observe.StatementContext;

/**
 * A statement that changes what the shadow must know (USE, COM_INIT_DB, SET): it takes effect
 * once the client's server answered it without an error.
 *
 * @param after   the session's state after it, or null when it becomes unknown
 * @param unknown why the state is no longer known (null when {@code after} is set)
 */
record StateChange(ShadowState after, String unknown) implements StatementContext.Mirrored {

    @Override
    public AnswerChecksum answer() {
        return null;
    }
}
