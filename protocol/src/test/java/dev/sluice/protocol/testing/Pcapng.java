package dev.sluice.protocol.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;

/**
 * Reads pcapng captures (https://www.ietf.org/archive/id/draft-ietf-opsawg-pcapng-02.html) of
 * IPv4 TCP traffic over Ethernet and reassembles every TCP connection. Only what the project's
 * captures contain is supported; any other link type or IP fragments fail loudly rather than
 * yielding wrong bytes. Frames that are not IPv4 TCP (ARP, IPv6) are skipped.
 */
public final class Pcapng {

    private static final int SECTION_HEADER = 0x0A0D0D0A;
    private static final int INTERFACE_DESCRIPTION = 1;
    private static final int SIMPLE_PACKET = 3;
    private static final int ENHANCED_PACKET = 6;
    private static final int BYTE_ORDER_MAGIC = 0x1A2B3C4D;
    private static final int LINKTYPE_ETHERNET = 1;

    private Pcapng() {
    }

    /** Reads {@code captures/NAME} from the test classpath; a name ending in .gz is gunzipped. */
    public static Capture readResource(String name) {
        String path = "/captures/" + name;
        try (InputStream raw = Pcapng.class.getResourceAsStream(path)) {
            if (raw == null) {
                throw new IllegalArgumentException("no capture " + path + " on the classpath");
            }
            InputStream in = name.endsWith(".gz") ? new GZIPInputStream(raw, 1 << 16) : raw;
            return read(in.readAllBytes(), name);
        } catch (IOException e) {
            throw new UncheckedIOException("reading " + path, e);
        }
    }

    /** Parses a whole pcapng file; {@code name} only labels error messages. */
    public static Capture read(byte[] file, String name) {
        ByteBuffer buf = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN);
        List<Integer> linkTypes = new ArrayList<>();
        Map<String, Flow> flows = new LinkedHashMap<>();
        int frames = 0;
        while (buf.remaining() >= 12) {
            int start = buf.position();
            int type = buf.getInt(start);
            if (type == SECTION_HEADER) {
                buf.order(buf.getInt(start + 8) == BYTE_ORDER_MAGIC ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN);
                linkTypes.clear();
            }
            int length = buf.getInt(start + 4);
            if (length < 12 || length % 4 != 0 || length > buf.remaining()) {
                throw new IllegalArgumentException(name + ": block at offset " + start + " has length " + length);
            }
            switch (type) {
                case INTERFACE_DESCRIPTION -> linkTypes.add(buf.getShort(start + 8) & 0xFFFF);
                case ENHANCED_PACKET -> {
                    frames++;
                    int iface = buf.getInt(start + 8);
                    int captured = buf.getInt(start + 20);
                    int original = buf.getInt(start + 24);
                    frame(name, frames, linkType(linkTypes, iface, name), file, start + 28, captured, original, flows);
                }
                case SIMPLE_PACKET -> {
                    frames++;
                    int original = buf.getInt(start + 8);
                    int captured = Math.min(original, length - 16);
                    frame(name, frames, linkType(linkTypes, 0, name), file, start + 12, captured, original, flows);
                }
                default -> { }
            }
            buf.position(start + length);
        }
        if (buf.hasRemaining()) {
            throw new IllegalArgumentException(name + ": " + buf.remaining() + " stray bytes at the end");
        }
        List<TcpConnection> connections = new ArrayList<>();
        for (Flow flow : flows.values()) {
            connections.add(flow.finish(name));
        }
        return new Capture(frames, connections);
    }

    private static int linkType(List<Integer> linkTypes, int iface, String name) {
        if (iface < 0 || iface >= linkTypes.size()) {
            throw new IllegalArgumentException(name + ": packet on undeclared interface " + iface);
        }
        return linkTypes.get(iface);
    }

    private static void frame(String name, int number, int linkType, byte[] file, int at, int captured,
                              int original, Map<String, Flow> flows) {
        String where = name + " frame " + number;
        if (linkType != LINKTYPE_ETHERNET) {
            throw new IllegalArgumentException(where + ": link type " + linkType + " (supported: 1, Ethernet)");
        }
        if (captured < original) {
            throw new IllegalArgumentException(where + ": only " + captured + " of " + original
                    + " bytes captured (snap length too small)");
        }
        ByteBuffer eth = ByteBuffer.wrap(file, at, captured).slice().order(ByteOrder.BIG_ENDIAN);
        if (captured < 14 || (eth.getShort(12) & 0xFFFF) != 0x0800) {
            return;
        }
        int ip = 14;
        int ihl = (eth.get(ip) & 0x0F) * 4;
        int totalLength = eth.getShort(ip + 2) & 0xFFFF;
        if ((eth.get(ip) & 0xF0) != 0x40 || eth.get(ip + 9) != 6) {
            return;
        }
        if ((eth.getShort(ip + 6) & 0x3FFF) != 0) {
            throw new IllegalArgumentException(where + ": fragmented IPv4 packet (not supported)");
        }
        if (ip + totalLength > captured) {
            throw new IllegalArgumentException(where + ": IPv4 total length " + totalLength + " exceeds the frame");
        }
        int tcp = ip + ihl;
        InetSocketAddress src = endpoint(file, at + ip + 12, eth.getShort(tcp) & 0xFFFF);
        InetSocketAddress dst = endpoint(file, at + ip + 16, eth.getShort(tcp + 2) & 0xFFFF);
        int seq = eth.getInt(tcp + 4);
        int dataOffset = ((eth.get(tcp + 12) & 0xF0) >> 4) * 4;
        int flags = eth.get(tcp + 13) & 0xFF;
        byte[] data = new byte[ip + totalLength - tcp - dataOffset];
        eth.get(tcp + dataOffset, data);
        flows.computeIfAbsent(Flow.key(src, dst), k -> new Flow()).add(number, src, dst, seq, flags, data);
    }

    private static InetSocketAddress endpoint(byte[] file, int addressAt, int port) {
        try {
            byte[] address = {file[addressAt], file[addressAt + 1], file[addressAt + 2], file[addressAt + 3]};
            return new InetSocketAddress(InetAddress.getByAddress(address), port);
        } catch (UnknownHostException e) {
            throw new IllegalStateException("a 4-byte address is always valid", e);
        }
    }
}
