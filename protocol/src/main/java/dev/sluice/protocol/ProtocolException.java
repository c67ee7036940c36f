package dev.sluice.protocol;

/**
 * The one exception for malformed MySQL protocol input. Messages say what was read, what was
 * expected and where, e.g. {@code payload length: 17 (expected: >= 20) in phase HANDSHAKE_RESPONSE}.
 */
public final class ProtocolException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private String context = "";

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

    /**
     * Adds the phase or packet the caller was in ("... in COM_QUERY response"), innermost first.
     * Returns this exception rather than a new one: malformed input may arrive by the thousand,
     * and each new exception would walk the stack again.
     */
    public ProtocolException in(String where) {
        context = context + " in " + where;
        return this;
    }

    @Override
    public String getMessage() {
        return super.getMessage() + context;
    }
}
