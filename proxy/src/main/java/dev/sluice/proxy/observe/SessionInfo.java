package dev.sluice.proxy.observe;

import java.net.SocketAddress;
import java.util.Map;
import java.util.Set;

/** What observers may know about a client session. Read on the session's event loop only. */
public interface SessionInfo {

    /** The id the proxy greeted the client with (the backend's in pass-through mode). */
    long sessionId();

    /** The account, or null before login / in pass-through mode. */
    String user();

    SocketAddress clientAddress();

    /** The default schema as far as the proxy knows, or null. */
    String schema();

    /** Why the session holds on to its backend connection now (split mode); empty otherwise. */
    Set<String> pins();

    /** The session's backend connection's backend name now, or null when it holds none. */
    String backendName();

    /** Per-session storage for observers (e.g. prepared statement texts by id), created on demand. */
    Map<Object, Object> attributes();

    /** The collation id the client logged in with (its handshake response), or -1 when not known. */
    default int loginCollation() {
        return -1;
    }

    /**
     * The session variables the client has set to other values than its login left them at, by
     * name; null when the proxy does not follow them (only split mode reads the servers' session
     * tracking). A fresh map each call.
     */
    default Map<String, String> changedVariables() {
        return null;
    }
}
