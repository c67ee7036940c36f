package dev.sluice.proxy.observe;

import dev.sluice.protocol.response.Response;
import dev.sluice.proxy.backend.Backend;
import io.netty.buffer.ByteBuf;
import java.util.List;

/**
 * Several observers as one. They share the command's {@link StatementContext}, so the digest one
 * of them asks for is there for the others, and each keeps what it needs of the command there.
 */
public final class CompositeObserver implements StatementObserver {

    private final StatementObserver[] observers;

    private CompositeObserver(List<StatementObserver> observers) {
        this.observers = observers.toArray(StatementObserver[]::new);
    }

    public static StatementObserver of(List<StatementObserver> observers) {
        List<StatementObserver> real = observers.stream().filter(o -> o != StatementObserver.NONE).toList();
        return switch (real.size()) {
            case 0 -> StatementObserver.NONE;
            case 1 -> real.get(0);
            default -> new CompositeObserver(real);
        };
    }

    @Override
    public void onSessionStart(SessionInfo session) {
        for (StatementObserver observer : observers) {
            observer.onSessionStart(session);
        }
    }

    @Override
    public void onSessionEnd(SessionInfo session) {
        for (StatementObserver observer : observers) {
            observer.onSessionEnd(session);
        }
    }

    @Override
    public void onCommand(SessionInfo session, StatementContext statement) {
        for (StatementObserver observer : observers) {
            observer.onCommand(session, statement);
        }
    }

    @Override
    public void onResponse(SessionInfo session, StatementContext statement, Backend backend, Response response,
                           long latencyNanos) {
        for (StatementObserver observer : observers) {
            observer.onResponse(session, statement, backend, response, latencyNanos);
        }
    }

    @Override
    public void onNoResponseCommand(SessionInfo session, int command, ByteBuf frame) {
        for (StatementObserver observer : observers) {
            observer.onNoResponseCommand(session, command, frame);
        }
    }

    @Override
    public void onPinned(SessionInfo session, String reason) {
        for (StatementObserver observer : observers) {
            observer.onPinned(session, reason);
        }
    }
}
