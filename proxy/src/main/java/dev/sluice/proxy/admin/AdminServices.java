package dev.sluice.proxy.admin;

import dev.sluice.config.AdminConfig;
import dev.sluice.proxy.backend.Backend;
import dev.sluice.proxy.health.HealthChecker;
import dev.sluice.proxy.runtime.ProxyRuntime;
import dev.sluice.proxy.stats.DigestTable;
import dev.sluice.proxy.stats.StatsObserver;
import io.netty.channel.Channel;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.ScheduledFuture;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Everything that watches and steers the proxy from the side: the stats observer on the proxy
 * path, the health checker, the Prometheus meters, the HTTP and MySQL-protocol admin ports, and
 * config reload (admin command, SIGHUP, file change). Runs on two threads of its own (admin and
 * health), never on the proxy's event loops.
 */
public final class AdminServices implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(AdminServices.class);
    private static final long FILE_CHECK_MILLIS = 2000;

    private final ProxyRuntime runtime;
    private final EventLoopGroup adminGroup;
    private final EventLoopGroup healthGroup;
    private final DigestTable digests;
    private final StatsObserver stats;
    private final HealthChecker health;
    private final Tables tables;
    private final ProxyMetrics metrics;
    private final ConfigReloader reloader;
    private final AdminCommands commands;
    private Channel http;
    private Channel sql;
    private ScheduledFuture<?> ticker;
    private ScheduledFuture<?> fileWatch;

    private AdminServices(ProxyRuntime runtime, Path configFile) {
        this.runtime = runtime;
        this.adminGroup = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("sluice-admin", true),
                NioIoHandler.newFactory());
        this.healthGroup = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("sluice-health", true),
                NioIoHandler.newFactory());
        this.digests = new DigestTable(runtime.config().stats().maxDigests(), runtime.config().stats().digests());
        this.stats = new StatsObserver(digests);
        this.health = new HealthChecker(runtime, healthGroup.next(), NioSocketChannel.class);
        this.tables = new Tables(runtime, stats, health);
        this.metrics = new ProxyMetrics(runtime, stats, health);
        this.reloader = new ConfigReloader(runtime, health, digests, configFile);
        this.commands = new AdminCommands(runtime, tables, this::resetStats, () -> {
            try {
                return reloader.reload();
            } catch (ConfigReloader.ReloadException e) {
                throw new AdminSqlException(1105, "HY000", e.getMessage());
            }
        });
    }

    /**
     * Starts the stats (registered as a statement observer), the health checks, and, when
     * {@code admin.enabled}, the two admin ports.
     *
     * @param configFile the file to reload on SIGHUP, on change and on RELOAD CONFIG; null for none
     */
    public static AdminServices start(ProxyRuntime runtime, Path configFile) throws InterruptedException {
        AdminServices services = new AdminServices(runtime, configFile);
        try {
            services.startAll();
        } catch (RuntimeException | InterruptedException e) {
            services.close();
            throw e;
        }
        return services;
    }

    private void startAll() throws InterruptedException {
        runtime.observers().add(stats);
        ticker = adminGroup.next().scheduleAtFixedRate(this::tick, 1, 1, TimeUnit.SECONDS);
        if (runtime.config().health().enabled() && dev.sluice.proxy.health.HealthAccount.of(runtime.config()).isEmpty()) {
            log.warn("health checks are off: they need an account with a password (health.user and health.password, or"
                    + " a users entry with password, not only password_hash)");
        }
        health.start();
        AdminConfig admin = runtime.config().admin();
        if (admin.enabled()) {
            try {
                http = AdminHttpServer.bind(adminGroup, admin.http().host(), admin.http().port(),
                        new AdminHttpHandler(runtime, tables, metrics, new Overview(runtime, stats)));
            } catch (InterruptedException e) {
                throw e;
            } catch (Exception e) {
                throw new IllegalStateException("cannot open the HTTP admin port on " + admin.http() + " ("
                        + e.getMessage() + "): set admin.http to a free port, or admin.enabled: false", e);
            }
            try {
                sql = AdminSqlServer.bind(adminGroup, () -> runtime.config().admin(), runtime.rsaKeys(), commands);
            } catch (InterruptedException e) {
                throw e;
            } catch (Exception e) {
                throw new IllegalStateException("cannot open the SQL admin port on " + admin.sql() + " ("
                        + e.getMessage() + "): set admin.sql to a free port, or admin.enabled: false", e);
            }
            if (admin.weakPassword() && !AdminConfig.loopback(admin.sql().host())) {
                log.warn("admin.sql {} is reachable from other hosts with {} admin password: set admin.password",
                        admin.sql(), admin.password().isEmpty() ? "an empty" : "the default");
            }
            log.info("admin: {} (HTTP: the live page at /, /metrics, /api/..., /health) and {} (mariadb -h{} -P{} -u{} -p)",
                    httpAddress(), sqlAddress(), sqlAddress().getHostString(), sqlAddress().getPort(), admin.user());
        }
        if (reloader.file() != null) {
            fileWatch = adminGroup.next().scheduleWithFixedDelay(reloader::reloadIfChanged, FILE_CHECK_MILLIS,
                    FILE_CHECK_MILLIS, TimeUnit.MILLISECONDS);
            HangupSignal.install(() -> adminGroup.execute(() -> {
                try {
                    reloader.reload();
                } catch (ConfigReloader.ReloadException e) {
                    log.error("SIGHUP: {}", e.getMessage());
                }
            }));
        }
    }

    /** Once a second: keeps the 10-second latency windows exact and forgets drained pools. */
    private void tick() {
        for (Backend backend : runtime.backends()) {
            backend.stats().latency().roll();
        }
        runtime.dropDrainedPools();
    }

    public StatsObserver stats() {
        return stats;
    }

    public HealthChecker health() {
        return health;
    }

    public Tables tables() {
        return tables;
    }

    public ProxyMetrics metrics() {
        return metrics;
    }

    public ConfigReloader reloader() {
        return reloader;
    }

    /** Where the HTTP admin listens, or null when admin is off. */
    public InetSocketAddress httpAddress() {
        return http == null ? null : (InetSocketAddress) http.localAddress();
    }

    /** Where the SQL admin listens, or null when admin is off. */
    public InetSocketAddress sqlAddress() {
        return sql == null ? null : (InetSocketAddress) sql.localAddress();
    }

    /** Counters, latencies and digests start afresh; gauges (connections, state, lag) are live values. */
    public void resetStats() {
        runtime.backends().forEach(backend -> backend.stats().reset());
        stats.reset();
        log.info("stats reset by the admin");
    }

    @Override
    public void close() {
        runtime.observers().remove(stats);
        if (ticker != null) {
            ticker.cancel(false);
        }
        if (fileWatch != null) {
            fileWatch.cancel(false);
        }
        health.close();
        if (http != null) {
            http.close().awaitUninterruptibly();
        }
        if (sql != null) {
            sql.close().awaitUninterruptibly();
        }
        adminGroup.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly();
        healthGroup.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly();
    }
}
