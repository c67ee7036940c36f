package dev.sluice.proxy.session;

/** Fired into every client pipeline when shutdown begins. */
public enum ShutdownEvent {
    INSTANCE
}
