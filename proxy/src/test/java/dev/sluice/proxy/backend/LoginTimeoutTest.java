package dev.sluice.proxy.backend;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.BackendConfig;
import dev.sluice.config.HostPort;
import dev.sluice.protocol.auth.AuthPlugins;
import dev.sluice.protocol.auth.ClientAuthOptions;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.Future;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A server that accepts and never greets. A login timing out there says the backend stalled, and
 * puts it on backoff; but while it answered other logins within the timeout, the timeout says the
 * machine is busy (thousands of logins at once): the login is tried once more and the backend
 * stays in rotation for everyone else.
 */
@Timeout(20)
class LoginTimeoutTest {

    private ServerSocket silent;
    private final List<Socket> accepted = new CopyOnWriteArrayList<>();
    private EventLoopGroup loops;
    private OffLoopResolver resolver;

    @BeforeEach
    void start() throws Exception {
        silent = new ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress());
        Thread.ofVirtual().start(() -> {
            while (!silent.isClosed()) {
                try {
                    accepted.add(silent.accept());
                } catch (java.io.IOException closed) {
                    return;
                }
            }
        });
        loops = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        resolver = OffLoopResolver.create();
    }

    @AfterEach
    void stop() throws Exception {
        silent.close();
        for (Socket s : accepted) {
            s.close();
        }
        resolver.close();
        loops.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
    }

    @Test
    void aBackendThatAnsweredLatelyGetsASecondLoginAndNoBackoff() throws Exception {
        Backend backend = backend();
        // Another login succeeds while this one waits.
        loops.schedule(backend::connectSucceeded, 150, TimeUnit.MILLISECONDS);

        Future<BackendConnection> login = connector().connect(backend, request(), loops.next());

        assertThat(login.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(login.cause()).hasMessageContaining("did not finish the login");
        assertThat(accepted).as("two connections: the login and its retry").hasSize(2);
        assertThat(backend.consecutiveConnectFailures()).as("the retry's timeout counts once").isEqualTo(1);
    }

    @Test
    void aBackendSilentSinceLongerThanTheTimeoutIsPutOnBackoffAtOnce() throws Exception {
        Backend backend = backend();

        Future<BackendConnection> login = connector().connect(backend, request(), loops.next());

        assertThat(login.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(login.cause()).hasMessageContaining("did not finish the login");
        assertThat(accepted).hasSize(1);
        assertThat(backend.available(System.nanoTime())).isFalse();
    }

    private Backend backend() {
        return new Backend(new BackendConfig("silent", new HostPort("127.0.0.1", silent.getLocalPort()),
                BackendConfig.Role.PRIMARY, 1, 10));
    }

    private BackendConnector connector() {
        return new BackendConnector(NioSocketChannel.class, AuthPlugins.standard(), null,
                ClientAuthOptions.plaintext(false), Duration.ofMillis(300), Duration.ofSeconds(1), false, resolver);
    }

    private static LoginRequest request() {
        return new LoginRequest("app", "secret".getBytes(StandardCharsets.UTF_8), 0, 45, null);
    }
}
