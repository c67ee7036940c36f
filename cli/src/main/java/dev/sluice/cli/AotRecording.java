package dev.sluice.cli;

import dev.sluice.proxy.ProxyServer;
import dev.sluice.proxy.backend.Backend;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The launcher's AOT cache (bin/aot-cache) as this proxy sees it. A proxy started from a cache
 * says so; a proxy recording its classes and profiles for one marks the recording worth keeping
 * once it has relayed enough statements for the profiles to be the hot paths'. The JVM writes
 * the recording at every exit, a failed start's too, and a proxy started from a cache runs C2
 * alone: a cache made from a run that did nothing would leave every later start interpreting its
 * hot paths for longer, so the launcher makes one only from a marked recording.
 */
final class AotRecording {

    /** Enough calls of the statement path for C2 alone to compile it (2,500 at the launcher's thresholds). */
    static final long STATEMENTS_TO_KEEP = Long.getLong("sluice.aot.statements-to-keep", 100_000);
    private static final Duration CHECK_EVERY = Duration.ofSeconds(5);
    private static final Logger log = LoggerFactory.getLogger(AotRecording.class);

    private AotRecording() {
    }

    /** The marker file the launcher looks for beside a recorded cache. */
    static Path markerOf(Path recording) {
        return recording.resolveSibling(recording.getFileName() + ".served");
    }

    static void watch(ProxyServer proxy) {
        String cache = System.getProperty("sluice.aot.cache");
        if (cache != null) {
            log.info("jvm: started from the AOT cache {} (classes linked, profiles of an earlier run, C2 only)", cache);
        }
        String recording = System.getProperty("sluice.aot.recording");
        if (recording == null) {
            return;
        }
        log.info("jvm: recording an AOT cache's classes and profiles for the next start, {}; kept once {}"
                + " statements are relayed",
                recording, STATEMENTS_TO_KEEP);
        Thread.ofPlatform().daemon().name("sluice-aot-recording").start(() -> markWhenServed(proxy, Path.of(recording)));
    }

    private static void markWhenServed(ProxyServer proxy, Path recording) {
        try {
            while (relayed(proxy) < STATEMENTS_TO_KEEP) {
                Thread.sleep(CHECK_EVERY);
            }
            long relayed = relayed(proxy);
            Files.writeString(markerOf(recording), "served " + relayed + " statements\n");
            log.info("jvm: the AOT cache's recording is marked to keep ({} statements relayed)", relayed);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException e) {
            log.warn("jvm: cannot mark the AOT cache's recording as served: {}", e.toString());
        }
    }

    private static long relayed(ProxyServer proxy) {
        long statements = 0;
        for (Backend backend : proxy.runtime().backends()) {
            statements += backend.stats().queries();
        }
        return statements;
    }
}
