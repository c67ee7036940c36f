package dev.sluice.proxy.mirror;

import dev.sluice.protocol.Commands;
import dev.sluice.protocol.checksum.Answer;
import dev.sluice.protocol.checksum.AnswerChecksum;
import dev.sluice.protocol.response.ResponseTracker;
import io.netty.buffer.ByteBuf;
import java.util.function.Function;

/**
 * Reads the shadow's answer to one COM_QUERY: the tracker says where it ends (whatever its
 * content), the checksum what it was.
 */
final class ShadowAnswer implements Function<ByteBuf, Answer> {

    private final ResponseTracker tracker;
    private final AnswerChecksum checksum = new AnswerChecksum();

    ShadowAnswer(long capabilities) {
        tracker = new ResponseTracker(capabilities);
        tracker.begin(Commands.COM_QUERY);
        checksum.begin(capabilities);
    }

    @Override
    public Answer apply(ByteBuf payload) {
        checksum.accept(payload.readableBytes(), payload);
        return tracker.accept(payload) ? checksum.answer() : null;
    }
}
