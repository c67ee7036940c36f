package dev.sluice.proxy.capture;

import dev.sluice.config.CaptureConfig;
import dev.sluice.proxy.memory.MemoryBudget;
import dev.sluice.proxy.observe.StatementObserver;
import java.time.Duration;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Switches capture on and off while the proxy runs (the config at start, {@code --capture}, the
 * admin port's {@code SET CAPTURE ON|OFF}). Enabling never fails the caller for a file problem:
 * the writer opens the file on its own thread, and a file it cannot open or write turns capture
 * off with one log line and a count in {@link CaptureStats#failures()}; {@link #status()} says why.
 */
public final class CaptureControl implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(CaptureControl.class);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);

    private final Consumer<StatementObserver> register;
    private final Consumer<StatementObserver> unregister;
    private final BooleanSupplier clientStatementIds;
    private final MemoryBudget budget;
    private final CaptureStats stats = new CaptureStats();
    private CaptureConfig config = CaptureConfig.defaults();
    private CaptureWriter writer;
    private CaptureObserver observer;

    /** {@code register} and {@code unregister} add and remove an observer of every statement. */
    public CaptureControl(Consumer<StatementObserver> register, Consumer<StatementObserver> unregister) {
        this(register, unregister, () -> true, MemoryBudget.unlimited());
    }

    public CaptureControl(Consumer<StatementObserver> register, Consumer<StatementObserver> unregister,
                          BooleanSupplier clientStatementIds) {
        this(register, unregister, clientStatementIds, MemoryBudget.unlimited());
    }

    /**
     * @param clientStatementIds whether observers see prepared-statement ids as the client knows them;
     *                           when not, capture writes executes without pairing them with prepares
     *                           rather than pair them wrongly (both routers show the client's ids)
     * @param budget             what statements waiting for the writer take their bytes from
     */
    public CaptureControl(Consumer<StatementObserver> register, Consumer<StatementObserver> unregister,
                          BooleanSupplier clientStatementIds, MemoryBudget budget) {
        this.register = register;
        this.unregister = unregister;
        this.clientStatementIds = clientStatementIds;
        this.budget = budget;
    }

    /** Starts capturing with {@code wanted} (which must name a file), replacing any capture running. */
    public synchronized CaptureStatus enable(CaptureConfig wanted) {
        if (wanted.file().isEmpty()) {
            throw new IllegalArgumentException("capture needs a file (capture.file in the config, or --capture=FILE)");
        }
        stopRunning();
        config = wanted.withEnabled(true);
        writer = new CaptureWriter(config, stats, budget);
        observer = new CaptureObserver(config, writer, stats, clientStatementIds.getAsBoolean());
        writer.start();
        register.accept(observer);
        log.info("capture on: {} ({}, sql {}, sample rate {}, min duration {} ms)", config.file().get(),
                config.format().configName(), config.sql().configName(), config.sampleRate(),
                config.minDuration().toMillis());
        return status();
    }

    /**
     * Starts capturing again with the last settings (the config's, when capture never ran).
     *
     * @throws IllegalStateException when no capture file was ever configured
     */
    public synchronized CaptureStatus enable() {
        if (config.file().isEmpty()) {
            throw new IllegalStateException("no capture file is configured (set capture.file in the config, or start"
                    + " with --capture=FILE)");
        }
        return enable(config);
    }

    /** Settings {@link #enable()} uses, e.g. the config file's capture section while capture is off. */
    public synchronized void configure(CaptureConfig settings) {
        config = settings;
    }

    /** Stops capturing: statements already queued are written, then the file is closed. */
    public synchronized CaptureStatus disable() {
        boolean was = writer != null && writer.accepting();
        stopRunning();
        config = config.withEnabled(false);
        if (was) {
            log.info("capture off ({} statements written, {} dropped since start)", stats.writtenStatements(),
                    stats.droppedStatements());
        }
        return status();
    }

    public synchronized CaptureStatus status() {
        boolean running = writer != null && writer.accepting();
        Optional<String> failure = writer == null ? Optional.empty() : writer.failure();
        return new CaptureStatus(running, config, failure);
    }

    public CaptureStats stats() {
        return stats;
    }

    private void stopRunning() {
        if (observer != null) {
            unregister.accept(observer);
            observer = null;
        }
        if (writer != null) {
            writer.stop(STOP_TIMEOUT);
        }
    }

    /** Writes what is queued and closes the file (proxy shutdown). */
    @Override
    public synchronized void close() {
        stopRunning();
    }
}
