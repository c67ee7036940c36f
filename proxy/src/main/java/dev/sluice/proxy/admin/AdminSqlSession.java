package dev.sluice.proxy.admin;

import dev.sluice.config.AdminConfig;
import dev.sluice.protocol.Capabilities;
import dev.sluice.protocol.Commands;
import dev.sluice.protocol.ProtocolException;
import dev.sluice.protocol.ServerStatus;
import dev.sluice.protocol.auth.AuthPlugins;
import dev.sluice.protocol.auth.AuthSeed;
import dev.sluice.protocol.auth.MysqlNativePassword;
import dev.sluice.protocol.auth.RsaKeys;
import dev.sluice.protocol.auth.ServerAuthExchange;
import dev.sluice.protocol.auth.ServerLogin;
import dev.sluice.protocol.auth.ServerStep;
import dev.sluice.protocol.frame.RawPacketDecoder;
import dev.sluice.protocol.packet.HandshakeResponse41;
import dev.sluice.protocol.packet.HandshakeV10;
import dev.sluice.protocol.packet.SslRequest;
import dev.sluice.proxy.command.Replies;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One client of the MySQL-protocol admin port: the greeting, mysql_native_password login as the
 * admin user (a client preferring caching_sha2_password is switched), then one admin statement
 * per COM_QUERY. Plain text only: the port listens on loopback by default.
 */
final class AdminSqlSession extends ChannelInboundHandlerAdapter {

    private static final Logger log = LoggerFactory.getLogger(AdminSqlSession.class);
    /** What the admin offers: the 4.1 protocol with plugin auth, classic EOF packets, no TLS, no compression. */
    static final long CAPABILITIES = Capabilities.CLIENT_PROTOCOL_41 | Capabilities.CLIENT_SECURE_CONNECTION
            | Capabilities.CLIENT_PLUGIN_AUTH | Capabilities.CLIENT_PLUGIN_AUTH_LENENC_CLIENT_DATA
            | Capabilities.CLIENT_LONG_PASSWORD | Capabilities.CLIENT_TRANSACTIONS | Capabilities.CLIENT_CONNECT_WITH_DB
            | Capabilities.CLIENT_CONNECT_ATTRS | Capabilities.CLIENT_MULTI_RESULTS | Capabilities.CLIENT_LONG_FLAG;

    private enum Phase { RESPONSE, AUTH, COMMAND, CLOSED }

    private final Supplier<AdminConfig> config;
    private final RsaKeys rsaKeys;
    private final AdminCommands commands;
    private final byte[] seed = AuthSeed.generate();
    private final long connectionId;
    private Phase phase = Phase.RESPONSE;
    private ServerAuthExchange exchange;
    private String user;
    private int sequenceId;

    AdminSqlSession(Supplier<AdminConfig> config, RsaKeys rsaKeys, AdminCommands commands, long connectionId) {
        this.connectionId = connectionId;
        this.config = config;
        this.rsaKeys = rsaKeys;
        this.commands = commands;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        HandshakeV10 greeting = HandshakeV10.withSeed(AdminSqlServer.VERSION,
                connectionId, seed, CAPABILITIES, 45, ServerStatus.AUTOCOMMIT,
                MysqlNativePassword.NAME);
        ctx.writeAndFlush(Replies.frame(ctx.alloc(), 0, greeting));
        ctx.fireChannelActive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf frame = (ByteBuf) msg;
        try {
            sequenceId = RawPacketDecoder.sequenceId(frame);
            ByteBuf payload = RawPacketDecoder.payload(frame);
            switch (phase) {
                case RESPONSE -> onResponse(ctx, payload);
                case AUTH -> step(ctx, exchange.onClientData(ByteBufUtil.getBytes(payload)));
                case COMMAND -> onCommand(ctx, payload);
                case CLOSED -> {
                }
            }
        } catch (ProtocolException e) {
            refuse(ctx, 1043, "08S01", "Bad handshake: " + e.getMessage());
        } finally {
            frame.release();
        }
    }

    private void onResponse(ChannelHandlerContext ctx, ByteBuf payload) {
        if (SslRequest.matches(payload)) {
            refuse(ctx, 1043, "08S01", "The admin port does not offer TLS: connect with --skip-ssl (it listens on "
                    + config.get().sql() + ")");
            return;
        }
        HandshakeResponse41 response = HandshakeResponse41.decode(payload);
        AdminConfig admin = config.get();
        user = response.username();
        byte[] password = admin.user().equals(user) ? admin.password().getBytes(StandardCharsets.UTF_8) : null;
        String clientPlugin = Capabilities.has(response.capabilities(), Capabilities.CLIENT_PLUGIN_AUTH)
                ? response.authPluginName() : null;
        ServerLogin login = new ServerLogin(user, host(ctx), password, seed, false, rsaKeys, true);
        exchange = new ServerAuthExchange(AuthPlugins.standard(), login, MysqlNativePassword.NAME);
        phase = Phase.AUTH;
        step(ctx, exchange.start(clientPlugin, response.authResponse()));
    }

    private void step(ChannelHandlerContext ctx, ServerStep step) {
        switch (step) {
            case ServerStep.Reply reply -> ctx.writeAndFlush(Replies.frame(ctx.alloc(), ++sequenceId, reply.payload()));
            case ServerStep.Accept accept -> {
                phase = Phase.COMMAND;
                new ResultSetWriter(ctx.channel(), sequenceId + 1).ok(0, "");
            }
            case ServerStep.Reject reject -> {
                log.info("admin login refused: {}", reject.message());
                refuse(ctx, reject.errorCode(), reject.sqlState(), reject.message());
            }
        }
    }

    private void onCommand(ChannelHandlerContext ctx, ByteBuf payload) {
        if (!payload.isReadable()) {
            new ResultSetWriter(ctx.channel(), 1).error(1047, "08S01", "Malformed packet: empty command");
            return;
        }
        int command = payload.readUnsignedByte();
        ResultSetWriter writer = new ResultSetWriter(ctx.channel(), 1);
        switch (command) {
            case Commands.COM_QUIT -> {
                phase = Phase.CLOSED;
                ctx.close();
            }
            case Commands.COM_PING, Commands.COM_INIT_DB, Commands.COM_RESET_CONNECTION -> writer.ok(0, "");
            case Commands.COM_QUERY -> query(writer, payload.toString(StandardCharsets.UTF_8));
            default -> writer.error(1047, "08S01", "The admin port does not know " + Commands.name(command)
                    + " (it answers COM_QUERY, COM_PING, COM_INIT_DB and COM_QUIT)");
        }
    }

    private void query(ResultSetWriter writer, String sql) {
        try {
            AdminResult result = commands.execute(sql, user);
            switch (result) {
                case AdminResult.Rows rows -> writer.table(rows.table());
                case AdminResult.Ok ok -> writer.ok(ok.affectedRows(), ok.info());
            }
        } catch (AdminSqlException e) {
            writer.error(e.code(), e.sqlState(), e.getMessage());
        } catch (RuntimeException e) {
            log.warn("admin statement failed: {}", sql, e);
            writer.error(1105, "HY000", "Unknown error: " + e);
        }
    }

    private void refuse(ChannelHandlerContext ctx, int code, String sqlState, String message) {
        if (phase == Phase.CLOSED) {
            return;
        }
        phase = Phase.CLOSED;
        ResultSetWriter writer = new ResultSetWriter(ctx.channel(), sequenceId + 1);
        writer.error(code, sqlState, message);
        ctx.channel().writeAndFlush(io.netty.buffer.Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        log.debug("admin SQL connection failed", cause);
        if (phase == Phase.COMMAND) {
            ctx.close();
        } else {
            refuse(ctx, 1043, "08S01", "Bad handshake: " + cause.getMessage());
        }
    }

    private static String host(ChannelHandlerContext ctx) {
        return ctx.channel().remoteAddress() instanceof InetSocketAddress address && address.getAddress() != null
                ? address.getAddress().getHostAddress() : "localhost";
    }
}
