package dev.jobweaver.worker.handler.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.jobweaver.common.net.Destinations;
import dev.jobweaver.worker.testing.HttpSettings;
import java.net.InetAddress;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Which addresses and hosts HTTP jobs may reach: non-public ranges refused by default, and what widens that. */
class DestinationsTest {

    private static final Destinations DEFAULTS = new Destinations("jobweaver.worker.http", "HTTP jobs", HttpSettings.defaults());

    @ParameterizedTest
    @CsvSource({
            "127.0.0.1, loopback", "127.1.2.3, loopback", "::1, loopback",
            "10.0.0.1, private", "172.16.5.4, private", "172.31.255.255, private", "192.168.1.1, private",
            "169.254.169.254, link-local", "fe80::1, link-local",
            "fc00::1, unique-local", "fd12:3456::1, unique-local",
            "224.0.0.1, multicast", "ff02::1, multicast",
            "0.0.0.0, unspecified", "::, unspecified", "0.1.2.3, unspecified",
            "100.64.0.1, carrier-grade NAT", "100.127.255.255, carrier-grade NAT",
            "198.18.0.1, reserved", "240.0.0.1, reserved", "255.255.255.255, reserved",
            // IPv6 forms that carry an IPv4 address are judged by it
            "::ffff:127.0.0.1, loopback", "::10.0.0.1, private", "64:ff9b::a9fe:a9fe, link-local",
            "2002:c0a8:0101::1, private"})
    void nonPublicAddressesAreRefusedByDefault(String ip, String range) throws Exception {
        InetAddress address = InetAddress.ofLiteral(ip);

        assertThat(Destinations.refusedRange(address)).isEqualTo(range);
        assertThat(DEFAULTS.addressRefusal("some.host", new InetAddress[] {address}))
                .isEqualTo("host some.host resolves to " + address.getHostAddress() + ", a " + range + " address,"
                        + " which HTTP jobs may not reach; allow it with jobweaver.worker.http.allowed-networks"
                        + " (or jobweaver.worker.http.allow-private)");
    }

    @ParameterizedTest
    @ValueSource(strings = {"93.184.216.34", "8.8.8.8", "172.32.0.1", "100.128.0.1", "2606:4700::1111",
            "64:ff9b::808:808", "2002:0808:0808::1"})
    void publicAddressesAreAllowed(String ip) {
        InetAddress address = InetAddress.ofLiteral(ip);

        assertThat(Destinations.refusedRange(address)).isNull();
        assertThat(DEFAULTS.addressRefusal("some.host", new InetAddress[] {address})).isNull();
    }

    @Test
    void oneRefusedAddressAmongPublicOnesRefusesTheHost() {
        InetAddress[] addresses = {InetAddress.ofLiteral("93.184.216.34"), InetAddress.ofLiteral("10.0.0.7")};

        assertThat(DEFAULTS.addressRefusal("rebind.example", addresses))
                .startsWith("host rebind.example resolves to 10.0.0.7, a private address");
    }

    @Test
    void anAllowedNetworkOpensOnlyItsOwnAddresses() {
        Destinations internal = new Destinations("jobweaver.worker.http", "HTTP jobs", HttpSettings.defaults().withNetworks("10.20.0.0/16", "fd00::/8",
                "127.0.0.1"));

        assertThat(internal.addressRefusal("svc", addresses("10.20.3.4"))).isNull();
        assertThat(internal.addressRefusal("svc", addresses("fd00::5"))).isNull();
        assertThat(internal.addressRefusal("svc", addresses("127.0.0.1"))).isNull();
        assertThat(internal.addressRefusal("svc", addresses("10.21.0.1"))).contains("a private address");
        assertThat(internal.addressRefusal("svc", addresses("127.0.0.2"))).contains("a loopback address");
        assertThat(internal.addressRefusal("svc", addresses("93.184.216.34"))).isNull();
    }

    @Test
    void allowPrivateOpensEveryRange() {
        Destinations open = new Destinations("jobweaver.worker.http", "HTTP jobs", HttpSettings.defaults().withAllowPrivate(true));

        assertThat(open.addressRefusal("svc", addresses("127.0.0.1", "10.0.0.1", "169.254.169.254", "::1"))).isNull();
    }

    @Test
    void allowedHostsNameHostsAndSubdomains() {
        Destinations named = new Destinations("jobweaver.worker.http", "HTTP jobs", HttpSettings.defaults().withHosts("api.example.com", "*.internal.test"));

        assertThat(named.hostRefusal("api.example.com")).isNull();
        assertThat(named.hostRefusal("API.Example.com")).isNull();
        assertThat(named.hostRefusal("a.b.internal.test")).isNull();
        assertThat(named.hostRefusal("internal.test")).isEqualTo("host internal.test is not in"
                + " jobweaver.worker.http.allowed-hosts");
        assertThat(named.hostRefusal("evil-api.example.com")).isNotNull();
        assertThat(DEFAULTS.hostRefusal("anything.example")).isNull();
    }

    @Test
    void aHostResolvingToNothingIsRefused() {
        assertThat(DEFAULTS.addressRefusal("empty", new InetAddress[0])).isEqualTo("host empty resolves to no address");
    }

    @Test
    void aMalformedNetworkFailsStartUpNamingTheKey() {
        assertThatThrownBy(() -> new Destinations("jobweaver.worker.http", "HTTP jobs", Optional.empty(), Optional.of(List.of("intranet.local")), false))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("jobweaver.worker.http.allowed-networks: 'intranet.local' is not an IP address or a CIDR"
                        + " such as 10.20.0.0/16");
        assertThatThrownBy(() -> new Destinations("jobweaver.worker.http", "HTTP jobs", Optional.empty(), Optional.of(List.of("10.0.0.0/33")), false))
                .hasMessage("jobweaver.worker.http.allowed-networks: '10.0.0.0/33' needs a prefix length from 0 to 32");
    }

    private static InetAddress[] addresses(String... ips) {
        return java.util.Arrays.stream(ips).map(InetAddress::ofLiteral).toArray(InetAddress[]::new);
    }
}
