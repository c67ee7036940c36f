package dev.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.net.InetAddress;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** proxy_protocol_networks and backends[].send_proxy_protocol. */
class ProxyProtocolConfigTest {

    @Test
    void networksParseAndMatch() throws Exception {
        SluiceConfig config = ConfigLoader.parse("""
                proxy_protocol_networks: [10.0.0.0/8, 192.168.1.7, "::1", "fd00::/8", 0.0.0.0/0]
                backends:
                  - address: db:3306
                    send_proxy_protocol: true
                  - address: db:3307
                """, "sluice.yaml", Map.of());

        assertThat(config.proxyProtocolNetworks()).extracting(IpNetwork::toString)
                .containsExactly("10.0.0.0/8", "192.168.1.7/32", "0:0:0:0:0:0:0:1/128", "fd00:0:0:0:0:0:0:0/8", "0.0.0.0/0");
        assertThat(config.backends()).extracting(BackendConfig::sendProxyProtocol).containsExactly(true, false);
        IpNetwork ten = IpNetwork.parse("10.0.0.0/8");
        assertThat(ten.contains(InetAddress.getByName("10.255.0.1"))).isTrue();
        assertThat(ten.contains(InetAddress.getByName("11.0.0.1"))).isFalse();
        assertThat(ten.contains(InetAddress.getByName("::ffff:a00:1"))).as("v4-mapped reads as IPv4").isTrue();
        assertThat(IpNetwork.parse("192.168.1.7").contains(InetAddress.getByName("192.168.1.8"))).isFalse();
        assertThat(IpNetwork.parse("fd00::/8").contains(InetAddress.getByName("fd12::1"))).isTrue();
        assertThat(IpNetwork.parse("fd00::/8").contains(InetAddress.getByName("10.0.0.1"))).isFalse();
        assertThat(config.proxyProtocolTrusted(InetAddress.getByName("172.16.0.1"))).as("0.0.0.0/0").isTrue();
        assertThat(config.proxyProtocolTrusted(InetAddress.getByName("::2"))).isFalse();
        assertThat(SluiceConfig.defaults().proxyProtocolNetworks()).isEmpty();
    }

    @Test
    void badNetworksNameKeyAndLine() {
        List<String> problems = problems("""
                proxy_protocol_networks:
                  - 10.0.0.1/8
                  - lb.internal
                  - 10.0.0.0/33
                  - 300.1.1.1
                  - [a]
                backends:
                  - address: db:3306
                    send_proxy_protocol: yes
                """);

        assertThat(problems).containsExactly(
                "sluice.yaml:2:5: proxy_protocol_networks[0]: \"10.0.0.1/8\" has bits set beyond its /8 (expected: the"
                        + " network's first address, 10.0.0.0/8)",
                "sluice.yaml:3:5: proxy_protocol_networks[1]: \"lb.internal\" is not an IP address (expected: an IP address"
                        + " or network in CIDR notation, e.g. 10.0.0.0/8, 192.168.1.7 or fd00::/8)",
                "sluice.yaml:4:5: proxy_protocol_networks[2]: \"10.0.0.0/33\" has prefix length \"33\" (expected: 0 to 32"
                        + " after the /)",
                "sluice.yaml:5:5: proxy_protocol_networks[3]: \"300.1.1.1\" is not an IP address (expected: an IP address"
                        + " or network in CIDR notation, e.g. 10.0.0.0/8, 192.168.1.7 or fd00::/8)",
                "sluice.yaml:6:5: proxy_protocol_networks[4]: found a list (expected: an IP address or network in CIDR"
                        + " notation, e.g. 10.0.0.0/8, 192.168.1.7 or fd00::/8)",
                "sluice.yaml:9:26: backends[0].send_proxy_protocol: \"yes\" is not a boolean (expected: true or false)");
        assertThatThrownBy(() -> new IpNetwork(InetAddress.getByName("10.0.0.0"), 33))
                .hasMessage("prefix length 33 is out of range (expected: 0 to 32)");
    }

    private static List<String> problems(String yaml) {
        ConfigException e = catchThrowableOfType(ConfigException.class, () -> ConfigLoader.parse(yaml, "sluice.yaml", Map.of()));
        assertThat(e).as("a ConfigException for:\n" + yaml).isNotNull();
        return e.problems().stream().map(ConfigProblem::toString).toList();
    }
}
