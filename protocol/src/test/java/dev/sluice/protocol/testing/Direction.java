package dev.sluice.protocol.testing;

/** Which way bytes travelled on a captured TCP connection. */
public enum Direction {
    CLIENT_TO_SERVER,
    SERVER_TO_CLIENT
}
