package dev.sluice.proxy.split;

import dev.sluice.config.UserConfig;
import dev.sluice.protocol.ServerStatus;
import dev.sluice.protocol.auth.CachingSha2Password;
import dev.sluice.protocol.auth.Credential;
import dev.sluice.protocol.auth.MysqlNativePassword;
import dev.sluice.protocol.auth.ServerAuthExchange;
import dev.sluice.protocol.auth.ServerLogin;
import dev.sluice.protocol.auth.ServerStep;
import dev.sluice.protocol.frame.RawPacketDecoder;
import dev.sluice.protocol.packet.ComChangeUser;
import dev.sluice.proxy.auth.AccountCredentials;
import dev.sluice.proxy.auth.ClientAuth;
import dev.sluice.proxy.auth.AuthWork;
import dev.sluice.proxy.command.Replies;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.Channel;

/**
 * COM_CHANGE_USER in split mode, answered by the proxy: the session has no backend connection of
 * its own to pass it to, so the proxy checks the new account itself (as MySQL does, against the
 * greeting's scramble, switching plugin when the client used another) and the session starts over
 * as the new user.
 */
final class ChangeUser {

    /** Where the exchange stands after a step. */
    enum Progress { WAITING, ACCEPTED, REJECTED }

    private final ComChangeUser request;
    private final ServerAuthExchange exchange;
    private final UserConfig account;
    private final AuthWork authWork;
    private int sequenceId;
    /** What logs into backends as the new account, once it is accepted. */
    private Credential credential;
    /** Why the account was refused, once it is; not yet told to the client. */
    private ServerStep.Reject rejection;

    private ChangeUser(ComChangeUser request, ServerAuthExchange exchange, UserConfig account, int sequenceId,
                       AuthWork authWork) {
        this.authWork = authWork;
        this.request = request;
        this.exchange = exchange;
        this.account = account;
        this.sequenceId = sequenceId;
    }

    /** Starts checking the COM_CHANGE_USER in {@code frame}; the first step is in {@link #first}. */
    static ChangeUser start(ClientAuth auth, ByteBuf frame, long capabilities, byte[] seed, String host,
                            boolean secure) {
        ComChangeUser request = ComChangeUser.decode(RawPacketDecoder.payload(frame).duplicate(), capabilities);
        UserConfig account = auth.user(request.user()).orElse(null);
        String plugin = CachingSha2Password.NAME.equals(request.authPluginName()) ? CachingSha2Password.NAME
                : MysqlNativePassword.NAME;
        ServerLogin login = new ServerLogin(request.user(), host,
                account == null ? null : AccountCredentials.of(account), seed, secure,
                auth.rsaKeys(), !auth.sha2Cache().contains(request.user()));
        return new ChangeUser(request, new ServerAuthExchange(auth.plugins(), login, plugin), account,
                RawPacketDecoder.sequenceId(frame), auth.work());
    }

    /** The first step, answered to the client. */
    Progress first(Channel client) {
        return answer(exchange.start(request.authPluginName(), request.authResponse()), client);
    }

    /** The client's next auth packet, answered. */
    Progress next(ByteBuf frame, Channel client) {
        sequenceId = RawPacketDecoder.sequenceId(frame);
        return answer(exchange.onClientData(ByteBufUtil.getBytes(RawPacketDecoder.payload(frame))), client);
    }

    /**
     * {@link #next} for a packet whose step decrypts with the proxy's RSA key: the step runs on the
     * auth threads ({@link AuthWork#step}), and {@code then} gets the answer's progress on the
     * client's event loop (null when the client left meanwhile). False, doing nothing, for a cheap
     * packet: call {@link #next} then.
     */
    boolean nextOffLoop(ByteBuf frame, Channel client, java.util.function.Consumer<Progress> then) {
        byte[] data = ByteBufUtil.getBytes(RawPacketDecoder.payload(frame));
        if (!exchange.costly(data)) {
            return false;
        }
        int sequence = RawPacketDecoder.sequenceId(frame);
        boolean queued = authWork.step(exchange, data, client.eventLoop(), (step, failure) -> {
            if (!client.isActive()) {
                then.accept(null);
                return;
            }
            sequenceId = sequence;
            then.accept(answer(failure == null ? step
                    : new ServerStep.Reject(1043, "08S01", "Bad handshake: " + failure.getMessage()), client));
        });
        if (!queued) {
            sequenceId = sequence;
            then.accept(answer(new ServerStep.Reject(Replies.TOO_MANY_CONNECTIONS, "08004", AuthWork.busy()), client));
        }
        return true;
    }

    /** After ACCEPTED, once the session has become the new user: the OK that ends the exchange. */
    void sendOk(Channel client) {
        client.writeAndFlush(Replies.ok(client.alloc(), ++sequenceId, ServerStatus.AUTOCOMMIT));
    }

    /** After REJECTED, or ACCEPTED when the server refused what the account asked for (its database): the ERR that ends it. */
    void sendErr(Channel client, int code, String sqlState, String message) {
        client.writeAndFlush(Replies.err(client.alloc(), ++sequenceId, code, sqlState, message));
    }

    private Progress answer(ServerStep step, Channel client) {
        return switch (step) {
            case ServerStep.Reply reply -> {
                client.writeAndFlush(Replies.frame(client.alloc(), ++sequenceId, reply.payload()));
                yield Progress.WAITING;
            }
            case ServerStep.Accept accept -> {
                credential = accept.credential();
                for (byte[] payload : accept.sendBeforeOk()) {
                    client.write(Replies.frame(client.alloc(), ++sequenceId, payload));
                }
                yield Progress.ACCEPTED;
            }
            case ServerStep.Reject reject -> {
                rejection = reject;
                yield Progress.REJECTED;
            }
        };
    }

    /** After REJECTED: the refusal, for {@link #sendErr}. */
    ServerStep.Reject rejection() {
        return rejection;
    }

    UserConfig account() {
        return account;
    }

    /** The new account's password, or the SHA1(password) its login proved; after ACCEPTED only. */
    Credential credential() {
        return credential;
    }

    ComChangeUser request() {
        return request;
    }
}
