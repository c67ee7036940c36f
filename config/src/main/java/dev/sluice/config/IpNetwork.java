package dev.sluice.config;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Objects;

/**
 * An IP network in CIDR notation ({@code 10.0.0.0/8}, {@code fd00::/8}), or one address
 * ({@code 10.1.2.3}, {@code ::1}). Only literal addresses: a host name would make the meaning of a
 * trusted network depend on DNS.
 *
 * @param address      the network's first address (its host bits are 0)
 * @param prefixLength the leading bits that must match, 0 to 32 (IPv4) or 128 (IPv6)
 */
public record IpNetwork(InetAddress address, int prefixLength) {

    static final String EXPECTED = "an IP address or network in CIDR notation, e.g. 10.0.0.0/8, 192.168.1.7 or fd00::/8";

    public IpNetwork {
        Objects.requireNonNull(address, "address");
        int bits = address.getAddress().length * 8;
        if (prefixLength < 0 || prefixLength > bits) {
            throw new IllegalArgumentException("prefix length " + prefixLength + " is out of range (expected: 0 to " + bits + ")");
        }
    }

    /** Parses {@code text}; throws IllegalArgumentException naming it and what was expected. */
    public static IpNetwork parse(String text) {
        int slash = text.indexOf('/');
        String host = slash < 0 ? text : text.substring(0, slash);
        InetAddress address = literal(host, text);
        int bits = address.getAddress().length * 8;
        int prefix = bits;
        if (slash >= 0) {
            String digits = text.substring(slash + 1);
            if (!digits.matches("[0-9]{1,3}") || Integer.parseInt(digits) > bits) {
                throw new IllegalArgumentException(Messages.quote(text) + " has prefix length " + Messages.quote(digits)
                        + " (expected: 0 to " + bits + " after the /)");
            }
            prefix = Integer.parseInt(digits);
        }
        IpNetwork network = new IpNetwork(masked(address, prefix), prefix);
        if (!network.address().equals(address)) {
            throw new IllegalArgumentException(Messages.quote(text) + " has bits set beyond its /" + prefix
                    + " (expected: the network's first address, " + network + ")");
        }
        return network;
    }

    /** Whether {@code candidate} is in this network; an IPv4 address is never in an IPv6 network, nor the reverse. */
    public boolean contains(InetAddress candidate) {
        return candidate != null && candidate.getAddress().length == address.getAddress().length
                && masked(candidate, prefixLength).equals(address);
    }

    @Override
    public String toString() {
        return address.getHostAddress() + "/" + prefixLength;
    }

    private static InetAddress literal(String host, String text) {
        byte[] bytes = host.contains(":") ? ipv6(host) : ipv4(host);
        if (bytes == null) {
            throw new IllegalArgumentException(Messages.quote(text) + " is not an IP address (expected: " + EXPECTED + ")");
        }
        try {
            return InetAddress.getByAddress(bytes);
        } catch (UnknownHostException impossible) {
            throw new IllegalStateException(impossible);
        }
    }

    /** Four decimal parts 0 to 255, parsed here: InetAddress would look up anything else in DNS. */
    private static byte[] ipv4(String host) {
        String[] parts = host.split("\\.", -1);
        if (parts.length != 4) {
            return null;
        }
        byte[] bytes = new byte[4];
        for (int i = 0; i < 4; i++) {
            if (!parts[i].matches("[0-9]{1,3}") || Integer.parseInt(parts[i]) > 255) {
                return null;
            }
            bytes[i] = (byte) Integer.parseInt(parts[i]);
        }
        return bytes;
    }

    /** A text with a colon is only ever parsed as an IPv6 literal, never looked up. */
    private static byte[] ipv6(String host) {
        if (!host.matches("[0-9A-Fa-f:.]+")) {
            return null;
        }
        try {
            InetAddress address = InetAddress.getByName(host);
            return address instanceof Inet4Address ? null : address.getAddress();
        } catch (UnknownHostException e) {
            return null;
        }
    }

    private static InetAddress masked(InetAddress address, int prefix) {
        byte[] bytes = address.getAddress();
        for (int i = 0; i < bytes.length; i++) {
            int keep = Math.max(0, Math.min(8, prefix - i * 8));
            bytes[i] &= (byte) (0xFF << (8 - keep));
        }
        try {
            return InetAddress.getByAddress(bytes);
        } catch (UnknownHostException impossible) {
            throw new IllegalStateException(impossible);
        }
    }
}
