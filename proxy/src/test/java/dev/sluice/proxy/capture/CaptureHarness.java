package dev.sluice.proxy.capture;

import dev.sluice.config.BackendConfig;
import dev.sluice.config.CaptureConfig;
import dev.sluice.config.HostPort;
import dev.sluice.protocol.frame.Packet;
import dev.sluice.protocol.response.Response;
import dev.sluice.proxy.backend.Backend;
import dev.sluice.proxy.observe.StatementContext;
import dev.sluice.proxy.observe.StatementObserver;
import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Capture driven the way sessions drive it (command, then response), with a real writer thread
 * writing a real file; {@link #finish} stops the writer and reads the file.
 */
final class CaptureHarness {

    final List<StatementObserver> registered = new CopyOnWriteArrayList<>();
    final CaptureControl control;
    private final Map<String, Backend> backends = new HashMap<>();
    private final Path file;

    CaptureHarness(CaptureConfig config) {
        this(config, true);
    }

    /** {@code clientIds}: whether statement ids in frames are the ones the client knows. */
    CaptureHarness(CaptureConfig config, boolean clientIds) {
        this.file = config.file().orElseThrow();
        this.control = new CaptureControl(registered::add, registered::remove, () -> clientIds);
        control.enable(config);
    }

    StatementObserver observer() {
        return registered.isEmpty() ? StatementObserver.NONE : registered.get(0);
    }

    void run(TestSession session, ByteBuf frame, Response response, long latencyMicros) {
        StatementObserver observer = observer();
        StatementContext statement = session.sql(frame);
        observer.onCommand(session, statement);
        observer.onResponse(session, statement, backend(session.backendName()), response, latencyMicros * 1000);
    }

    /** The command alone, as a session hands it to the observers; returns what capture kept of it. */
    Object command(TestSession session, ByteBuf frame) {
        StatementContext statement = session.sql(frame);
        observer().onCommand(session, statement);
        return statement.copy();
    }

    /** The session logs in while capture runs. */
    void start(TestSession session) {
        observer().onSessionStart(session);
    }

    void noResponse(TestSession session, ByteBuf frame) {
        observer().onNoResponseCommand(session, frame.getUnsignedByte(Packet.HEADER_SIZE), frame);
    }

    private Backend backend(String name) {
        return backends.computeIfAbsent(name, n -> new Backend(new BackendConfig(n, new HostPort("127.0.0.1", 3306),
                BackendConfig.Role.PRIMARY, 1, 10)));
    }

    /** Stops capture (what is queued gets written) and returns the file's lines. */
    List<String> finish() throws IOException {
        control.disable();
        return Files.readAllLines(file);
    }
}
