package dev.sluice.proxy.capture;

import dev.sluice.proxy.observe.SessionInfo;
import dev.sluice.proxy.observe.StatementContext;
import dev.sluice.proxy.sql.SqlReaders;
import io.netty.buffer.ByteBuf;
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
    /** As a session has one: utf8mb4 at login (collation 45) unless {@link #variables} says otherwise. */
    private final StatementContext sql = new StatementContext(new SqlReaders(), 45);
    private String characterSetClient;
    private String sqlMode;
    private int loginCollation = -1;
    private Map<String, String> changedVariables;

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

    /** The session's character_set_client and sql_mode as a split session tracks them (null: not set). */
    TestSession variables(String characterSetClient, String sqlMode) {
        this.characterSetClient = characterSetClient;
        this.sqlMode = sqlMode;
        return this;
    }

    /** What the session says it logged in with and has set since (null: not followed, as in session mode). */
    TestSession login(int collation, Map<String, String> changed) {
        this.loginCollation = collation;
        this.changedVariables = changed;
        return this;
    }

    /** What a session hands the observers with {@code frame}: the command, its SQL read as the session reads it. */
    StatementContext sql(ByteBuf frame) {
        return sql.reset(frame, characterSetClient, sqlMode);
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

    @Override
    public int loginCollation() {
        return loginCollation;
    }

    @Override
    public Map<String, String> changedVariables() {
        return changedVariables == null ? null : new java.util.TreeMap<>(changedVariables);
    }
}
