package dev.sluice.proxy.split;

import dev.sluice.config.UserConfig;
import dev.sluice.protocol.auth.CachingSha2Password;
import dev.sluice.protocol.auth.MysqlNativePassword;
import dev.sluice.protocol.auth.ServerAuthExchange;
import dev.sluice.protocol.auth.ServerLogin;
import dev.sluice.protocol.auth.ServerStep;
import dev.sluice.protocol.frame.RawPacketDecoder;
import dev.sluice.protocol.packet.ComChangeUser;
import dev.sluice.proxy.ProxyRuntime;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import java.nio.charset.StandardCharsets;

/**
 * COM_CHANGE_USER in split mode, answered by the proxy: the session has no backend connection of
 * its own to pass it to, so the proxy checks the new account itself (as MySQL does, against the
 * greeting's scramble, switching plugin when the client used another) and the session starts over
 * as the new user.
 */
final class ChangeUser {

    private final ComChangeUser request;
    private final ServerAuthExchange exchange;
    private final UserConfig account;

    private ChangeUser(ComChangeUser request, ServerAuthExchange exchange, UserConfig account) {
        this.request = request;
        this.exchange = exchange;
        this.account = account;
    }

    /** Starts checking the COM_CHANGE_USER in {@code frame}; the first step is in {@link #first}. */
    static ChangeUser start(ProxyRuntime runtime, ByteBuf frame, long capabilities, byte[] seed, String host,
                            boolean secure) {
        ComChangeUser request = ComChangeUser.decode(RawPacketDecoder.payload(frame).duplicate(), capabilities);
        UserConfig account = runtime.user(request.user()).orElse(null);
        String plugin = CachingSha2Password.NAME.equals(request.authPluginName()) ? CachingSha2Password.NAME
                : MysqlNativePassword.NAME;
        ServerLogin login = new ServerLogin(request.user(), host,
                account == null ? null : account.password().getBytes(StandardCharsets.UTF_8), seed, secure,
                runtime.rsaKeys(), !runtime.sha2Cache().contains(request.user()));
        return new ChangeUser(request, new ServerAuthExchange(runtime.authPlugins(), login, plugin), account);
    }

    ServerStep first() {
        return exchange.start(request.authPluginName(), request.authResponse());
    }

    ServerStep next(ByteBuf frame) {
        return exchange.onClientData(ByteBufUtil.getBytes(RawPacketDecoder.payload(frame)));
    }

    UserConfig account() {
        return account;
    }

    ComChangeUser request() {
        return request;
    }
}
