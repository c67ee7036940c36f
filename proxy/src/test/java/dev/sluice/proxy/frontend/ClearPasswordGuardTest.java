package dev.sluice.proxy.frontend;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Which backend auth packets would make a TLS client send its password in clear over plain TCP. */
class ClearPasswordGuardTest {

    @Test
    void aSwitchToAClearTextPluginIsRefused() {
        for (String plugin : new String[] {"mysql_clear_password", "dialog", "sha256_password"}) {
            assertThat(new ClearPasswordGuard("mysql_native_password").refuse(authSwitch(plugin)))
                    .as(plugin).contains("in clear", plugin, "tls.backend.enabled");
        }
    }

    @Test
    void aSwitchToAScramblingPluginGoesOn() {
        assertThat(new ClearPasswordGuard("caching_sha2_password").refuse(authSwitch("mysql_native_password"))).isNull();
        assertThat(new ClearPasswordGuard(null).refuse(authSwitch("client_ed25519"))).isNull();
    }

    @Test
    void cachingSha2FullAuthenticationIsRefusedItsFastPathIsNot() {
        assertThat(new ClearPasswordGuard("caching_sha2_password").refuse(bytes(1, 3))).as("fast auth success").isNull();
        assertThat(new ClearPasswordGuard("caching_sha2_password").refuse(bytes(1, 4))).contains("full password");
        ClearPasswordGuard switched = new ClearPasswordGuard("mysql_native_password");
        assertThat(switched.refuse(authSwitch("caching_sha2_password"))).isNull();
        assertThat(switched.refuse(bytes(1, 4))).as("after a switch to caching_sha2").isNotNull();
        assertThat(new ClearPasswordGuard("mysql_native_password").refuse(bytes(1, 4)))
                .as("04 means nothing to mysql_native_password").isNull();
    }

    @Test
    void aHandshakeResponseThatIsTheClearPasswordIsRefused() {
        assertThat(new ClearPasswordGuard("mysql_clear_password").refuseResponse()).contains("mysql_clear_password");
        assertThat(new ClearPasswordGuard("caching_sha2_password").refuseResponse()).isNull();
        assertThat(new ClearPasswordGuard(null).refuseResponse()).isNull();
    }

    private static ByteBuf authSwitch(String plugin) {
        ByteBuf payload = Unpooled.buffer();
        payload.writeByte(0xFE).writeBytes(plugin.getBytes(StandardCharsets.UTF_8)).writeByte(0);
        payload.writeBytes(new byte[20]).writeByte(0);
        return payload;
    }

    private static ByteBuf bytes(int... values) {
        ByteBuf payload = Unpooled.buffer();
        for (int v : values) {
            payload.writeByte(v);
        }
        return payload;
    }
}
