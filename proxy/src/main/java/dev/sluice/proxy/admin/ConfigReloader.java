package dev.sluice.proxy.admin;

import dev.sluice.config.ConfigException;
import dev.sluice.config.ConfigLoader;
import dev.sluice.config.LimitsConfig;
import dev.sluice.config.RoutingConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.config.TimeoutsConfig;
import dev.sluice.proxy.health.HealthChecker;
import dev.sluice.proxy.runtime.ProxyRuntime;
import dev.sluice.proxy.stats.DigestTable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the config file again and applies it without dropping a session: backends added, removed
 * and changed (see {@link ProxyRuntime#applyBackends}), users, limits, timeouts, health and digests.
 * What only a restart can change (listen, routing mode and balancer, TLS, event loops, admin, the
 * auth mode, and what pools and the connector were built with) keeps its running value, and the
 * result says so. A file with problems changes nothing.
 */
public final class ConfigReloader {

    private static final Logger log = LoggerFactory.getLogger(ConfigReloader.class);

    private final ProxyRuntime runtime;
    private final HealthChecker health;
    private final DigestTable digests;
    private final Path file;
    private Object lastSeen;

    /** @param file the config file, or null when the proxy was started without one */
    ConfigReloader(ProxyRuntime runtime, HealthChecker health, DigestTable digests, Path file) {
        this.runtime = runtime;
        this.health = health;
        this.digests = digests;
        this.file = file;
        this.lastSeen = stamp();
    }

    public Path file() {
        return file;
    }

    /**
     * Reloads the file and applies it.
     *
     * @return what changed, in words
     * @throws ReloadException with every problem found when nothing was applied
     */
    public synchronized String reload() {
        if (file == null) {
            throw new ReloadException("no config file to reload: the proxy was started without --config");
        }
        lastSeen = stamp();
        SluiceConfig loaded;
        try {
            loaded = ConfigLoader.load(file);
        } catch (ConfigException e) {
            throw new ReloadException("the old config stays: " + e.getMessage());
        }
        return apply(loaded);
    }

    /** Applies a config (from a reload, or given by a test). */
    public synchronized String apply(SluiceConfig loaded) {
        SluiceConfig running = runtime.config();
        List<String> kept = new ArrayList<>();
        SluiceConfig applied;
        try {
            applied = merge(running, loaded, kept);
        } catch (IllegalArgumentException e) {
            throw new ReloadException("the old config stays: " + e.getMessage());
        }
        dev.sluice.proxy.backend.Backends.Changes changes = runtime.applyBackends(applied);
        health.reconfigure(applied.health());
        digests.enabled(applied.stats().digests());
        digests.maxDigests(applied.stats().maxDigests());
        StringBuilder summary = new StringBuilder("config reloaded");
        if (file != null) {
            summary.append(" from ").append(file);
        }
        summary.append(changes.none() ? ": backends unchanged" : ": backends added " + changes.added() + ", removed "
                + changes.removed() + ", changed " + changes.changed());
        if (!kept.isEmpty()) {
            summary.append("; kept until a restart: ").append(String.join(", ", kept));
        }
        log.info("{}", summary);
        return summary.toString();
    }

    /** Reloads when the file changed since it was last read; called every few seconds. */
    void reloadIfChanged() {
        if (file == null || Objects.equals(stamp(), lastSeen)) {
            return;
        }
        try {
            reload();
        } catch (ReloadException e) {
            log.error("{} changed but cannot be applied; {}", file, e.getMessage());
        }
    }

    private Object stamp() {
        if (file == null) {
            return null;
        }
        try {
            BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
            return List.of(attributes.lastModifiedTime(), attributes.size(), String.valueOf(attributes.fileKey()));
        } catch (IOException e) {
            return "unreadable: " + e.getMessage();
        }
    }

    static SluiceConfig merge(SluiceConfig running, SluiceConfig loaded, List<String> kept) {
        SluiceConfig merged = loaded;
        if (!loaded.listen().equals(running.listen())) {
            kept.add("listen " + running.listen());
            merged = merged.withListen(running.listen());
        }
        RoutingConfig routing = loaded.routing();
        if (routing.mode() != running.routing().mode() || routing.balancer() != running.routing().balancer()) {
            kept.add("routing.mode " + running.routing().mode().configName() + ", routing.balancer "
                    + running.routing().balancer().configName());
            merged = merged.withRouting(new RoutingConfig(running.routing().mode(), running.routing().balancer(),
                    routing.readYourWrites(), routing.primaryWindow(), routing.gtidWaitTimeout(), routing.rules(),
                    routing.readYourWritesScope(), routing.discover(), routing.preferredPrimary()));
        }
        if (!loaded.tls().equals(running.tls())) {
            kept.add("tls");
            merged = merged.withTls(running.tls());
        }
        if (loaded.eventLoops() != running.eventLoops()) {
            kept.add("event_loops " + running.eventLoops());
        }
        if (!loaded.admin().equals(running.admin())) {
            kept.add("admin");
            merged = merged.withAdmin(running.admin());
        }
        if (loaded.passThroughAuth() != running.passThroughAuth()) {
            kept.add("users (" + (running.passThroughAuth() ? "pass-through auth" : "auth by the proxy") + ")");
            merged = merged.withUsers(running.users());
        }
        TimeoutsConfig t = loaded.timeouts();
        TimeoutsConfig r = running.timeouts();
        if (!t.connect().equals(r.connect()) || !t.backendRetry().equals(r.backendRetry())) {
            kept.add("timeouts.connect and backend_retry");
            merged = merged.withTimeouts(new TimeoutsConfig(r.connect(), t.handshake(), t.clientIdle(), t.backendQueue(),
                    t.poolIdle(), t.shutdown(), r.backendRetry()));
        }
        return merged;
    }

    /** A reload that changed nothing, and why. */
    public static final class ReloadException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        ReloadException(String message) {
            super(message, null, false, false);
        }
    }
}
