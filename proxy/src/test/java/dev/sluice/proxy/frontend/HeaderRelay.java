package dev.sluice.proxy.frontend;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * What haproxy's {@code send-proxy} / {@code send-proxy-v2} does, in a few lines: a TCP relay on
 * 127.0.0.1 that opens a connection to the target for each client, from {@code source}, and starts
 * it with a PROXY header naming the client as the relay saw it. Its header bytes are written here
 * from the specification, not by Netty, so the proxy's reading is checked against another writer.
 */
final class HeaderRelay implements AutoCloseable {

    private final ServerSocket listener;
    private final InetSocketAddress target;
    private final InetAddress source;
    private final int version;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private final List<InetSocketAddress> clients = new CopyOnWriteArrayList<>();

    /** @param version 1 or 2 */
    HeaderRelay(InetSocketAddress target, InetAddress source, int version) throws IOException {
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.target = target;
        this.source = source;
        this.version = version;
        Thread.ofVirtual().name("header-relay").start(this::accept);
    }

    int port() {
        return listener.getLocalPort();
    }

    /** Every client accepted so far, as the relay saw it (and named it in its header). */
    List<InetSocketAddress> clients() {
        return clients;
    }

    private void accept() {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                sockets.add(client);
                clients.add((InetSocketAddress) client.getRemoteSocketAddress());
                Socket upstream = new Socket();
                sockets.add(upstream);
                upstream.bind(new InetSocketAddress(source, 0));
                upstream.connect(target, 5_000);
                upstream.getOutputStream().write(header((InetSocketAddress) client.getRemoteSocketAddress(),
                        (InetSocketAddress) client.getLocalSocketAddress()));
                Thread.ofVirtual().start(() -> pipe(client, upstream));
                Thread.ofVirtual().start(() -> pipe(upstream, client));
            } catch (IOException e) {
                // closed, or one connection failed: the test sees it at its client
            }
        }
    }

    byte[] header(InetSocketAddress client, InetSocketAddress destination) {
        if (version == 1) {
            String family = client.getAddress() instanceof Inet4Address ? "TCP4" : "TCP6";
            return ("PROXY " + family + " " + client.getAddress().getHostAddress() + " "
                    + destination.getAddress().getHostAddress() + " " + client.getPort() + " " + destination.getPort()
                    + "\r\n").getBytes(StandardCharsets.US_ASCII);
        }
        byte[] from = client.getAddress().getAddress();
        byte[] to = destination.getAddress().getAddress();
        ByteBuffer header = ByteBuffer.allocate(16 + 2 * from.length + 4);
        header.put(new byte[] {0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D, 0x0A, 0x51, 0x55, 0x49, 0x54, 0x0A});
        header.put((byte) 0x21);                               // version 2, PROXY
        header.put((byte) (from.length == 4 ? 0x11 : 0x21));   // TCP over IPv4 or IPv6
        header.putShort((short) (2 * from.length + 4));
        header.put(from).put(to);
        header.putShort((short) client.getPort()).putShort((short) destination.getPort());
        return header.array();
    }

    /** Copies one way until end of stream, then half-closes, as haproxy passes a FIN on; an error closes both. */
    private static void pipe(Socket from, Socket to) {
        try {
            InputStream in = from.getInputStream();
            OutputStream out = to.getOutputStream();
            in.transferTo(out);
            to.shutdownOutput();
        } catch (IOException e) {
            closeQuietly(from);
            closeQuietly(to);
        }
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }

    @Override
    public void close() throws IOException {
        listener.close();
        for (Socket socket : sockets) {
            socket.close();
        }
    }
}
