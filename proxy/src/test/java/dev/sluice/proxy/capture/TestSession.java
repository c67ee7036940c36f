package dev.sluice.proxy.capture;

import dev.sluice.proxy.observe.SessionInfo;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/** A session as observers see it, for driving capture without a network. */
final class TestSession implements SessionInfo {

    private final long id;
    private final String user;
    private String schema;
    private String backend = "primary";
    private final Map<Object, Object> attributes = new HashMap<>();

    TestSession(long id, String user, String schema) {
        this.id = id;
        this.user = user;
        this.schema = schema;
    }

    TestSession schema(String newSchema) {
        schema = newSchema;
        return this;
    }

    TestSession backend(String name) {
        backend = name;
        return this;
    }

    @Override
    public long sessionId() {
        return id;
    }

    @Override
    public String user() {
        return user;
    }

    @Override
    public SocketAddress clientAddress() {
        return new InetSocketAddress("127.0.0.1", 40000 + (int) (id % 20000));
    }

    @Override
    public String schema() {
        return schema;
    }

    @Override
    public Set<String> pins() {
        return Set.of();
    }

    @Override
    public String backendName() {
        return backend;
    }

    @Override
    public Map<Object, Object> attributes() {
        return attributes;
    }
}
