package dev.sluice.protocol;

/**
 * The one exception for malformed MySQL protocol input. Messages say what was read, what was
 * expected and where, e.g. {@code payload length: 17 (expected: >= 20) in phase HANDSHAKE_RESPONSE}.
 */
public final class ProtocolException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public ProtocolException(String message) {
        super(message);
    }

    public ProtocolException(String message, Throwable cause) {
        super(message, cause);
    }

    /** A field ran past the end of its packet. */
    public static ProtocolException truncated(String field, int needed, int available) {
        return new ProtocolException(field + ": needs " + needed + " bytes (available: " + available + ")");
    }

    /** Adds the phase or context the caller was in, keeping the original text. */
    public ProtocolException in(String context) {
        ProtocolException withContext = new ProtocolException(getMessage() + " in " + context, getCause());
        withContext.setStackTrace(getStackTrace());
        return withContext;
    }
}
