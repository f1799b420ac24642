package dev.jobweaver.common.net;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Which destinations outbound requests may reach ({@link DestinationRules}): the URL's host against the allowed host
 * names,
 * then every address the host resolves to against the refused ranges and the allowed networks. An IPv6 address that
 * carries an IPv4 one (IPv4-compatible, NAT64 {@code 64:ff9b::/96}, 6to4 {@code 2002::/16}) is judged by the IPv4
 * address too.
 *
 * <p>{@code HTTP} jobs (the worker, {@code jobweaver.worker.http.*}) and webhook deliveries (the API,
 * {@code jobweaver.api.notifications.*}) follow the same rules, each with its own configuration; refusals name the
 * keys that widen them.
 */
public final class Destinations {

    /** The configuration prefix the rules came from, for the messages: {@code jobweaver.worker.http}. */
    private final String prefix;
    /** Who is refused, for the messages: {@code HTTP jobs}. */
    private final String who;

    /** Lower-case names and {@code *.suffix} patterns; null: any host. */
    private final List<String> hosts;
    private final List<Network> networks;
    private final boolean allowPrivate;

    /**
     * The rules of {@code rules}, configured under {@code prefix}, for {@code who}.
     *
     * @throws IllegalArgumentException naming the entry if an allowed network is not an address or a CIDR
     */
    public Destinations(String prefix, String who, DestinationRules rules) {
        this(prefix, who, rules.allowedHosts(), rules.allowedNetworks(), rules.allowPrivate());
    }

    /** IllegalArgumentException naming the entry if an allowed network is not an address or a CIDR. */
    public Destinations(String prefix, String who, Optional<List<String>> hosts, Optional<List<String>> networks,
                        boolean allowPrivate) {
        this.prefix = prefix;
        this.who = who;
        this.hosts = hosts.map(list -> list.stream().map(h -> h.trim().toLowerCase(Locale.ROOT))
                .filter(h -> !h.isEmpty()).toList()).orElse(null);
        List<Network> parsed = new ArrayList<>();
        for (String entry : networks.orElse(List.of())) {
            if (!entry.isBlank()) {
                parsed.add(Network.parse(prefix + ".allowed-networks", entry.trim()));
            }
        }
        this.networks = List.copyOf(parsed);
        this.allowPrivate = allowPrivate;
    }

    /** Why {@code host} (as in the URL, without brackets) may not be called, or null if its name is allowed. */
    public String hostRefusal(String host) {
        if (hosts == null) {
            return null;
        }
        String name = host.toLowerCase(Locale.ROOT);
        for (String allowed : hosts) {
            if (allowed.startsWith("*.") ? name.endsWith(allowed.substring(1)) : name.equals(allowed)) {
                return null;
            }
        }
        return "host " + host + " is not in " + prefix + ".allowed-hosts";
    }

    /** Why a request to {@code host} at {@code addresses} is refused, or null if every address is allowed. */
    public String addressRefusal(String host, InetAddress[] addresses) {
        if (addresses.length == 0) {
            return "host " + host + " resolves to no address";
        }
        if (allowPrivate) {
            return null;
        }
        for (InetAddress address : addresses) {
            String range = refusedRange(address);
            if (range != null && networks.stream().noneMatch(n -> n.contains(address))) {
                String ip = address.getHostAddress();
                return (ip.equals(host) ? "address " + ip : "host " + host + " resolves to " + ip) + ", a " + range
                        + " address, which " + who + " may not reach; allow it with " + prefix
                        + ".allowed-networks (or " + prefix + ".allow-private)";
            }
        }
        return null;
    }

    /** The kind of refused range {@code address} lies in, or null for an address reachable by default. */
    public static String refusedRange(InetAddress address) {
        if (address.isAnyLocalAddress()) {
            return "unspecified";
        }
        if (address.isLoopbackAddress()) {
            return "loopback";
        }
        if (address.isLinkLocalAddress()) {
            return "link-local";
        }
        if (address.isSiteLocalAddress()) {
            return "private";
        }
        if (address.isMulticastAddress()) {
            return "multicast";
        }
        byte[] b = address.getAddress();
        if (address instanceof Inet4Address) {
            int first = b[0] & 0xff;
            int second = b[1] & 0xff;
            if (first == 0) {
                return "unspecified";
            }
            if (first == 100 && (second & 0xc0) == 64) {
                return "carrier-grade NAT";
            }
            if (first >= 240 || first == 198 && (second & 0xfe) == 18 || first == 192 && second == 0 && b[2] == 0) {
                return "reserved";
            }
            return null;
        }
        if ((b[0] & 0xfe) == 0xfc) {
            return "unique-local";
        }
        Inet4Address embedded = embeddedIpv4((Inet6Address) address);
        return embedded == null ? null : refusedRange(embedded);
    }

    /** The IPv4 address an IPv6 one carries (IPv4-compatible, NAT64, 6to4), or null. */
    private static Inet4Address embeddedIpv4(Inet6Address address) {
        byte[] b = address.getAddress();
        int from;
        if (isZero(b, 0, 12)) {
            from = 12; // ::a.b.c.d (IPv4-mapped ones arrive as Inet4Address already)
        } else if (b[0] == 0 && b[1] == 0x64 && (b[2] & 0xff) == 0xff && (b[3] & 0xff) == 0x9b && isZero(b, 4, 12)) {
            from = 12; // NAT64
        } else if (b[0] == 0x20 && b[1] == 0x02) {
            from = 2; // 6to4
        } else {
            return null;
        }
        try {
            return (Inet4Address) InetAddress.getByAddress(new byte[] {b[from], b[from + 1], b[from + 2], b[from + 3]});
        } catch (UnknownHostException impossible) {
            throw new IllegalStateException(impossible);
        }
    }

    private static boolean isZero(byte[] b, int from, int to) {
        for (int i = from; i < to; i++) {
            if (b[i] != 0) {
                return false;
            }
        }
        return true;
    }

    /** An allowed network: an address and how many leading bits of it must match. */
    private record Network(byte[] address, int bits) {

        static Network parse(String key, String entry) {
            int slash = entry.indexOf('/');
            String ip = slash < 0 ? entry : entry.substring(0, slash);
            InetAddress address;
            try {
                address = InetAddress.ofLiteral(ip); // a literal only: never a DNS lookup
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(key + ": '" + entry
                        + "' is not an IP address or a CIDR such as 10.20.0.0/16");
            }
            int max = address.getAddress().length * 8;
            int bits = max;
            if (slash >= 0) {
                try {
                    bits = Integer.parseInt(entry.substring(slash + 1));
                } catch (NumberFormatException e) {
                    bits = -1;
                }
                if (bits < 0 || bits > max) {
                    throw new IllegalArgumentException(key + ": '" + entry + "' needs a prefix length from 0 to "
                            + max);
                }
            }
            return new Network(address.getAddress(), bits);
        }

        boolean contains(InetAddress candidate) {
            byte[] b = candidate.getAddress();
            if (b.length != address.length) {
                return false;
            }
            int full = bits / 8;
            for (int i = 0; i < full; i++) {
                if (b[i] != address[i]) {
                    return false;
                }
            }
            int rest = bits % 8;
            if (rest == 0) {
                return true;
            }
            int mask = (0xff << (8 - rest)) & 0xff;
            return (b[full] & mask) == (address[full] & mask);
        }
    }
}
