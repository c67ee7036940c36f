package dev.sluice.proxy.capture;

import java.util.Map;

/**
 * What a replay needs to open a captured session as it was, written with the session's first
 * line in a capture file: whether the session logged in while capture ran (so that everything it
 * did is in the file), the collation it logged in with, and the session variables it had set by
 * then (null where the proxy does not follow them).
 *
 * @param collationId the handshake response's collation id, or -1 when not known
 */
record SessionState(boolean login, int collationId, Map<String, String> variables) {
}
