package dev.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class HostPortTest {

    @ParameterizedTest
    @CsvSource({
        "127.0.0.1:3306, 127.0.0.1, 3306",
        "db.internal:3306, db.internal, 3306",
        "my_host-1:1, my_host-1, 1",
        "0.0.0.0:4040, 0.0.0.0, 4040",
        "[::1]:4040, ::1, 4040",
        "[2001:db8::1]:3306, 2001:db8::1, 3306",
        "[fe80::1%eth0]:3306, fe80::1%eth0, 3306",
        "[::ffff:127.0.0.1]:3306, ::ffff:127.0.0.1, 3306",
        "localhost:0, localhost, 0",
        "localhost:65535, localhost, 65535",
    })
    void parsesAndWritesBack(String text, String host, int port) {
        HostPort parsed = HostPort.parse(text);

        assertThat(parsed).isEqualTo(new HostPort(host, port));
        assertThat(parsed.toString()).isEqualTo(text);
        assertThat(HostPort.parse(parsed.toString())).isEqualTo(parsed);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "localhost:65536 | \"localhost:65536\": port 65536 is out of range (expected: 0 to 65535)",
        "localhost:99999999999 | port 99999999999 is out of range",
        "localhost:-1 | port \"-1\" is not a number",
        "localhost:http | port \"http\" is not a number",
        "localhost | \"localhost\" has no port (expected: host:port",
        "localhost: | \"localhost:\" has no port",
        ":3306 | \":3306\" has no host",
        "::1:3306 | an IPv6 address needs brackets (expected: [::1]:3306)",
        "[::1 | has no closing ']'",
        "[::1]3306 | \"[::1]3306\" has no port",
        "[db.internal]:3306 | \"db.internal\" in brackets is not an IPv6 address",
        "my host:3306 | \"my host\" is not a host name or IP address",
    })
    void rejectsWithAClearMessage(String text, String message) {
        assertThatThrownBy(() -> HostPort.parse(text))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(message);
    }

    @Test
    void constructorChecksPortAndHost() {
        assertThatThrownBy(() -> new HostPort("h", 65536)).hasMessageContaining("port 65536 is out of range");
        assertThatThrownBy(() -> new HostPort("h", -1)).hasMessageContaining("port -1 is out of range");
        assertThatThrownBy(() -> new HostPort("", 1)).hasMessageContaining("is not a host name");
        assertThat(HostPort.defaultListen()).hasToString("0.0.0.0:4040");
    }
}
