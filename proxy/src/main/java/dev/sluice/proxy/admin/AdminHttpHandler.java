package dev.sluice.proxy.admin;

import dev.sluice.proxy.runtime.ProxyRuntime;
import dev.sluice.proxy.backend.Backend;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP admin's routes: {@code /} (the live page), {@code /metrics} (Prometheus text),
 * {@code /api/backends}, {@code /api/pools}, {@code /api/digests}, {@code /api/sessions},
 * {@code /api/global}, {@code /api/overview} (JSON), and {@code /health} for load balancers (200
 * when a primary and a reader are up, else 503 and why). GET only. Runs on the admin's own
 * thread, never a proxy event loop.
 */
@ChannelHandler.Sharable
final class AdminHttpHandler extends SimpleChannelInboundHandler<FullHttpRequest> {

    private static final Logger log = LoggerFactory.getLogger(AdminHttpHandler.class);
    private static final String JSON = "application/json; charset=utf-8";
    private static final String PROMETHEUS = "text/plain; version=0.0.4; charset=utf-8";
    private static final String TEXT = "text/plain; charset=utf-8";
    private static final String HTML = "text/html; charset=utf-8";
    private static final List<String> ENDPOINTS = List.of("/", "/metrics", "/health", "/api/backends", "/api/pools",
            "/api/digests", "/api/sessions", "/api/global", "/api/overview", "/api/mirror");

    private final ProxyRuntime runtime;
    private final Tables tables;
    private final ProxyMetrics metrics;
    private final Overview overview;
    private final DashboardPage page = DashboardPage.load();

    AdminHttpHandler(ProxyRuntime runtime, Tables tables, ProxyMetrics metrics, Overview overview) {
        this.runtime = runtime;
        this.tables = tables;
        this.metrics = metrics;
        this.overview = overview;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
        QueryStringDecoder uri = new QueryStringDecoder(request.uri());
        FullHttpResponse response;
        try {
            response = authorized(request, uri.path()) ? route(request.method(), uri) : unauthorized();
        } catch (RuntimeException e) {
            log.warn("admin HTTP {} failed", request.uri(), e);
            response = text(HttpResponseStatus.INTERNAL_SERVER_ERROR, TEXT, "error: " + e + "\n");
        }
        boolean keepAlive = HttpUtil.isKeepAlive(request);
        HttpUtil.setKeepAlive(response, keepAlive);
        response.headers().set(HttpHeaderNames.CACHE_CONTROL, HttpHeaderValues.NO_STORE);
        var written = ctx.writeAndFlush(response);
        if (!keepAlive) {
            written.addListener(ChannelFutureListener.CLOSE);
        }
    }

    /**
     * With {@code admin.http_token} set, every request but {@code /health} (which load balancers
     * ask, and which tells only up or down) and {@code /} (the live page, which holds no data and
     * sends the token with its own requests) carries it as a bearer token. Read from the live
     * config, so a reload that changes the token applies to the next request.
     */
    private boolean authorized(FullHttpRequest request, String path) {
        String token = runtime.config().admin().httpToken();
        if (token.isEmpty() || path.equals("/health") || path.equals("/")) {
            return true;
        }
        String given = request.headers().get(HttpHeaderNames.AUTHORIZATION, "");
        byte[] expected = ("Bearer " + token).getBytes(StandardCharsets.UTF_8);
        // Constant time, so the comparison does not tell how much of a guess was right.
        return java.security.MessageDigest.isEqual(expected, given.getBytes(StandardCharsets.UTF_8));
    }

    private static FullHttpResponse unauthorized() {
        FullHttpResponse refused = text(HttpResponseStatus.UNAUTHORIZED, TEXT,
                "this admin port wants its token: Authorization: Bearer <admin.http_token>\n");
        refused.headers().set(HttpHeaderNames.WWW_AUTHENTICATE, "Bearer realm=\"sluice-admin\"");
        return refused;
    }

    private FullHttpResponse route(HttpMethod method, QueryStringDecoder uri) {
        if (!method.equals(HttpMethod.GET) && !method.equals(HttpMethod.HEAD)) {
            FullHttpResponse refused = text(HttpResponseStatus.METHOD_NOT_ALLOWED, TEXT, "only GET\n");
            refused.headers().set(HttpHeaderNames.ALLOW, "GET, HEAD");
            return refused;
        }
        String path = uri.path();
        return switch (path) {
            case "/metrics" -> text(HttpResponseStatus.OK, PROMETHEUS, metrics.scrape());
            case "/health" -> health();
            case "/api/backends", "/api/pools", "/api/sessions", "/api/global" ->
                    json(Json.rows(tables.table(path.substring(5))));
            case "/api/digests" -> digests(uri);
            case "/api/overview" -> json(overview.build());
            case "/api/mirror" -> json(mirror());
            case "/" -> page();
            case "/api" -> json(Map.of("endpoints", ENDPOINTS));
            default -> text(HttpResponseStatus.NOT_FOUND, TEXT, "no such page: " + path
                    + " (expected: " + String.join(", ", ENDPOINTS) + ")\n");
        };
    }

    /** SHOW MIRROR's row, and the mirror table's rows under {@code digests}. */
    private Map<String, Object> mirror() {
        Map<String, Object> body = new LinkedHashMap<>(Json.rows(MirrorTables.summary(runtime.mirror())).get(0));
        body.put("digests", Json.rows(MirrorTables.digests(runtime.mirror())));
        return body;
    }

    private FullHttpResponse digests(QueryStringDecoder uri) {
        Table table = tables.digests();
        List<Map<String, Object>> rows = Json.rows(table);
        String limit = uri.parameters().getOrDefault("limit", List.of("")).get(0);
        if (!limit.isEmpty()) {
            try {
                rows = rows.subList(0, Math.min(rows.size(), Math.max(0, Integer.parseInt(limit))));
            } catch (NumberFormatException e) {
                return text(HttpResponseStatus.BAD_REQUEST, TEXT, "limit: \"" + limit + "\" is not a number\n");
            }
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("kept", tables.digestsKept());
        body.put("evicted", tables.digestsEvicted());
        body.put("digests", rows);
        return json(body);
    }

    /** Up means: some primary and some reader (a replica, or else a primary) take new work. */
    private FullHttpResponse health() {
        long now = System.nanoTime();
        List<String> down = new ArrayList<>();
        boolean primary = false;
        boolean replica = false;
        boolean anyReplica = false;
        for (Backend backend : runtime.backends()) {
            boolean up = backend.available(now) && backend.weight() > 0;
            if (backend.isPrimary()) {
                primary |= up;
            } else {
                anyReplica = true;
                replica |= up && !backend.lagging();
            }
            if (!up) {
                down.add(backend.name() + " " + backend.state().name()
                        + (backend.lastConnectError() == null || backend.state() != Backend.State.ONLINE ? ""
                        : " (" + backend.lastConnectError() + ")"));
            }
        }
        boolean reader = anyReplica ? replica : primary;
        if (primary && reader) {
            return text(HttpResponseStatus.OK, TEXT, "OK\n");
        }
        String reason = !primary ? "no primary is up" : "no replica is up";
        return text(HttpResponseStatus.SERVICE_UNAVAILABLE, TEXT, reason + (down.isEmpty() ? "" : ": " + String.join("; ", down))
                + "\n");
    }

    private FullHttpResponse page() {
        ByteBuf content = Unpooled.wrappedBuffer(page.html());
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK, content);
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, HTML)
                .setInt(HttpHeaderNames.CONTENT_LENGTH, content.readableBytes())
                .set(HttpHeaderNames.CONTENT_SECURITY_POLICY, page.contentSecurityPolicy())
                .set(HttpHeaderNames.X_FRAME_OPTIONS, "DENY")
                .set("X-Content-Type-Options", "nosniff")
                .set("Referrer-Policy", "no-referrer");
        return response;
    }

    private static FullHttpResponse json(Object body) {
        return text(HttpResponseStatus.OK, JSON, Json.write(body) + "\n");
    }

    private static FullHttpResponse text(HttpResponseStatus status, String type, String body) {
        ByteBuf content = Unpooled.copiedBuffer(body, StandardCharsets.UTF_8);
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, content);
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, type);
        response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, content.readableBytes());
        return response;
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        log.debug("admin HTTP connection failed", cause);
        ctx.close();
    }
}
