package dev.sluice.proxy.session;

import dev.sluice.proxy.backend.BackendConnection;
import dev.sluice.proxy.backend.LoginRequest;
import dev.sluice.proxy.client.ClientOrigin;
import dev.sluice.proxy.kill.KillableSession;
import io.netty.channel.EventLoop;
import java.net.SocketAddress;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * A session as KILL, the query timeout and the observers see it: its ids, who it is, where its
 * statements run now. Read from the session's {@link CommandPhase} and {@link StatementPath}.
 */
final class SessionView implements KillableSession {

    private final CommandPhase phase;
    private final StatementPath path;
    private final long sessionId;
    private Map<Object, Object> attributes;

    SessionView(CommandPhase phase, StatementPath path, long sessionId) {
        this.phase = phase;
        this.path = path;
        this.sessionId = sessionId;
    }

    @Override
    public EventLoop eventLoop() {
        return phase.client().eventLoop();
    }

    @Override
    public LoginRequest login() {
        return path.login();
    }

    @Override
    public long sessionId() {
        return sessionId;
    }

    @Override
    public String user() {
        return path.user();
    }

    @Override
    public SocketAddress clientAddress() {
        return ClientOrigin.of(phase.client()).source();
    }

    @Override
    public String schema() {
        return path.schema();
    }

    @Override
    public int loginCollation() {
        return path.loginCollation();
    }

    @Override
    public Map<String, String> changedVariables() {
        return path.changedVariables();
    }

    @Override
    public Set<String> pins() {
        return path.pins();
    }

    @Override
    public String backendName() {
        return path.backendName();
    }

    @Override
    public Map<Object, Object> attributes() {
        if (attributes == null) {
            attributes = new HashMap<>();
        }
        return attributes;
    }

    @Override
    public long responsesDone() {
        return phase.responsesDone();
    }

    @Override
    public BackendConnection statementConnection() {
        return phase.ended() ? null : path.statementConnection();
    }

    @Override
    public void interruptPending() {
        path.interruptPending();
    }

    @Override
    public void endKilled() {
        phase.endKilled();
    }
}
