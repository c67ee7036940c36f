package dev.sluice.proxy.ha;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A TCP relay on loopback in front of a real server that can hold back what goes one way, as a
 * network that fails at the wrong moment does: the requests (the server never gets the command
 * sent), or the answers (the server runs it and the answer never comes back). What is held back
 * is dropped, and a connection one side closes meanwhile stays open on the other until
 * {@link #cut}, which closes every connection it carries.
 */
final class HoldingRelay implements AutoCloseable {

    /** Which way bytes are dropped instead of passed on. */
    enum Hold { NOTHING, REQUESTS, ANSWERS }

    private final ServerSocket listening;
    private final int targetPort;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private volatile Hold hold = Hold.NOTHING;
    private final AtomicLong dropped = new AtomicLong();

    HoldingRelay(int targetPort) throws IOException {
        this.targetPort = targetPort;
        this.listening = new ServerSocket();
        listening.bind(new InetSocketAddress("127.0.0.1", 0));
        Thread.ofVirtual().start(this::acceptLoop);
    }

    int port() {
        return listening.getLocalPort();
    }

    void hold(Hold what) {
        hold = what;
    }

    /** Bytes dropped while held. */
    long dropped() {
        return dropped.get();
    }

    /** Closes every connection it carries; new ones are taken (and passed on) as before. */
    void cut() {
        hold = Hold.NOTHING;
        sockets.forEach(HoldingRelay::closeQuietly);
        sockets.clear();
    }

    private void acceptLoop() {
        while (!listening.isClosed()) {
            try {
                Socket client = listening.accept();
                Socket server = new Socket("127.0.0.1", targetPort);
                sockets.add(client);
                sockets.add(server);
                Thread.ofVirtual().start(() -> pump(client, server, Hold.REQUESTS));
                Thread.ofVirtual().start(() -> pump(server, client, Hold.ANSWERS));
            } catch (IOException closed) {
                if (listening.isClosed()) {
                    return;
                }
            }
        }
    }

    private void pump(Socket from, Socket to, Hold droppedWhen) {
        byte[] buffer = new byte[16384];
        // Not closed by a try-with-resources: closing a socket's stream closes the socket.
        try {
            InputStream in = from.getInputStream();
            OutputStream out = to.getOutputStream();
            int n;
            while ((n = in.read(buffer)) >= 0) {
                if (hold != droppedWhen) {
                    out.write(buffer, 0, n);
                    out.flush();
                } else {
                    dropped.addAndGet(n);
                }
            }
        } catch (IOException ended) {
            // One side closed: the other goes too, unless bytes are held (then at the cut).
        }
        if (hold == Hold.NOTHING) {
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
        listening.close();
        sockets.forEach(HoldingRelay::closeQuietly);
    }
}
