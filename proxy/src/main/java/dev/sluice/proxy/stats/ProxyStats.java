package dev.sluice.proxy.stats;

import java.util.concurrent.atomic.LongAdder;

/** Proxy-wide counters (per-backend figures live on each Backend). */
public final class ProxyStats {

    private final LongAdder connectionsAccepted = new LongAdder();
    private final LongAdder connectionsRefused = new LongAdder();
    private final LongAdder loginFailures = new LongAdder();
    private final LongAdder protocolErrors = new LongAdder();

    public void accepted() {
        connectionsAccepted.increment();
    }

    public void refused() {
        connectionsRefused.increment();
    }

    public void loginFailed() {
        loginFailures.increment();
    }

    public void protocolError() {
        protocolErrors.increment();
    }

    public long connectionsAccepted() {
        return connectionsAccepted.sum();
    }

    public long connectionsRefused() {
        return connectionsRefused.sum();
    }

    public long loginFailures() {
        return loginFailures.sum();
    }

    public long protocolErrors() {
        return protocolErrors.sum();
    }
}
