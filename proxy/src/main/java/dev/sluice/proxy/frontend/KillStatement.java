package dev.sluice.proxy.frontend;

import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A {@code KILL [HARD | SOFT] [CONNECTION | QUERY] id} statement sent as COM_QUERY. Clients take the
 * id from the greeting (Connector/J cancels a statement or enforces a query timeout with
 * {@code KILL QUERY id} on a second connection); with users configured that id is the proxy's, not
 * the backend thread's, so the proxy must translate it.
 *
 * @param modifiers what came between KILL and the id ("QUERY", "HARD CONNECTION", or empty)
 * @param id        the thread id as the client wrote it
 */
record KillStatement(String modifiers, long id) {

    /** Longer COM_QUERY payloads are never a bare KILL: they are not decoded at all. */
    static final int MAX_LENGTH = 80;
    private static final Pattern KILL = Pattern.compile(
            "\\s*KILL\\s+((?:(?:HARD|SOFT)\\s+)?(?:(?:CONNECTION|QUERY)\\s+)?)(\\d{1,19})\\s*;?\\s*", Pattern.CASE_INSENSITIVE);

    /** The statement in a COM_QUERY payload (command byte first), or empty when it is something else. */
    static Optional<KillStatement> parse(ByteBuf payload) {
        int length = payload.readableBytes();
        if (length < 7 || length > MAX_LENGTH) {
            return Optional.empty();
        }
        String text = payload.toString(payload.readerIndex() + 1, length - 1, StandardCharsets.UTF_8);
        Matcher m = KILL.matcher(text);
        if (!m.matches()) {
            return Optional.empty();
        }
        try {
            return Optional.of(new KillStatement(m.group(1).trim().replaceAll("\\s+", " "), Long.parseLong(m.group(2))));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /** The same statement naming another thread. */
    String withId(long threadId) {
        return "KILL " + (modifiers.isEmpty() ? "" : modifiers + " ") + threadId;
    }
}
