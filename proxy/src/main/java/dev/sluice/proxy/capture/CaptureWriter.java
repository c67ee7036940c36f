package dev.sluice.proxy.capture;

import dev.sluice.config.CaptureConfig;
import dev.sluice.proxy.memory.MemoryBudget;
import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one thread that turns captured statements into lines of the file. Event loops hand
 * statements over with {@link #offer}, which never waits (no lock, see {@link StatementQueue}): a
 * full queue refuses. The thread polls rather than waits on the queue, so an offer never has to
 * wake it (no system call on the event loop); it sleeps a couple of milliseconds when idle.
 *
 * <p>When the file cannot be opened or written (disk full, no such folder), the writer logs it
 * once, stops accepting, counts what it could not write as dropped, and ends: capture is then
 * off until it is enabled again.
 */
final class CaptureWriter implements Runnable {

    private static final Logger log = LoggerFactory.getLogger(CaptureWriter.class);
    private static final int BATCH = 512;
    private static final long IDLE_NANOS = TimeUnit.MILLISECONDS.toNanos(2);

    private final CaptureConfig config;
    private final Path path;
    private final CaptureStats stats;
    private final StatementQueue queue;
    private final Thread thread;
    private volatile boolean accepting = true;
    private volatile boolean stopping;
    private volatile String failure;
    private long unflushedStatements;
    private long unflushedBytes;

    CaptureWriter(CaptureConfig config, CaptureStats stats, MemoryBudget budget) {
        this.config = config;
        this.path = config.file().orElseThrow(() -> new IllegalArgumentException("capture needs a file"));
        this.stats = stats;
        this.queue = new StatementQueue(config.queueSize(), budget);
        this.thread = Thread.ofPlatform().name("sluice-capture-writer").daemon(true).unstarted(this);
    }

    void start() {
        thread.start();
    }

    boolean accepting() {
        return accepting;
    }

    /** Queues a statement unless the queue is full or capture stopped; never blocks. */
    boolean offer(CapturedStatement statement) {
        return accepting && queue.offer(statement);
    }

    /** Why the writer stopped by itself, if it did. */
    Optional<String> failure() {
        return Optional.ofNullable(failure);
    }

    /** Stops accepting, writes what is queued, closes the file; waits for that up to {@code timeout}. */
    void stop(Duration timeout) {
        accepting = false;
        stopping = true;
        LockSupport.unpark(thread);
        try {
            thread.join(timeout.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (thread.isAlive()) {
            log.warn("capture: the writer of {} did not finish within {} (a blocked file?); it is left to end"
                    + " by itself", path, timeout);
        }
    }

    @Override
    public void run() {
        RotatingFile file;
        CaptureFormat format = CaptureFormat.of(config, new WallClock());
        try {
            file = new RotatingFile(path, config.maxFileSize(), config.maxFiles(), format.header(), () -> {
                format.newFile();
                stats.rotated();
            });
        } catch (IOException | RuntimeException e) {
            fail(e, List.of());
            return;
        }
        StatementRenderer renderer = new StatementRenderer(config.sql(), config.format() == CaptureConfig.Format.SLOWLOG);
        StringBuilder entry = new StringBuilder(512);
        Utf8Buffer utf8 = new Utf8Buffer();
        List<CapturedStatement> batch = new ArrayList<>(BATCH);
        try {
            while (true) {
                // Read before draining: what was queued before stop() is then drained below, even
                // if a flush blocked for a while after the queue last looked empty.
                boolean last = stopping;
                batch.clear();
                queue.drainTo(batch, BATCH);
                if (batch.isEmpty()) {
                    if (unflushedStatements > 0) {
                        flush(file);
                    }
                    if (last) {
                        break;
                    }
                    LockSupport.parkNanos(IDLE_NANOS);
                    continue;
                }
                for (int i = 0; i < batch.size(); i++) {
                    CapturedStatement statement = batch.get(i);
                    batch.set(i, null);
                    entry.setLength(0);
                    renderer.render(statement);
                    format.append(entry, statement, renderer);
                    if (!entry.isEmpty()) {
                        utf8.encode(entry);
                        file.append(utf8.array(), utf8.length());
                        unflushedStatements++;
                        unflushedBytes += utf8.length();
                    }
                }
            }
            file.close();
        } catch (IOException | RuntimeException e) {
            try {
                file.close();
            } catch (IOException | RuntimeException ignored) {
                // The file already failed; its error is the one worth reporting.
            }
            fail(e, batch);
        }
    }

    private void flush(RotatingFile file) throws IOException {
        file.flush();
        stats.written(unflushedStatements, unflushedBytes);
        unflushedStatements = 0;
        unflushedBytes = 0;
    }

    private void fail(Exception e, List<CapturedStatement> unwritten) {
        accepting = false;
        String reason = "cannot write " + path + ": " + reason(e);
        failure = reason;
        long lost = unflushedStatements + unwritten.stream().filter(java.util.Objects::nonNull).count();
        List<CapturedStatement> left = new ArrayList<>();
        queue.drainTo(left, Integer.MAX_VALUE);
        lost += left.size();
        stats.dropped(lost);
        stats.failed();
        log.error("capture stopped: {}; the proxy goes on without capture ({} statements not written;"
                + " SET CAPTURE ON on the admin port, or a restart, tries again)", reason, lost);
    }

    private static String reason(Exception e) {
        if (e instanceof FileSystemException fs && fs.getReason() != null) {
            return fs.getReason();
        }
        switch (e) {
            case java.nio.file.NoSuchFileException ignored -> {
                return "no such file or folder";
            }
            case java.nio.file.AccessDeniedException ignored -> {
                return "permission denied";
            }
            case java.nio.file.FileAlreadyExistsException ignored -> {
                return "a part of the path is a file, not a folder";
            }
            case java.nio.file.NotDirectoryException ignored -> {
                return "a part of the path is not a folder";
            }
            default -> {
            }
        }
        return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
    }
}
