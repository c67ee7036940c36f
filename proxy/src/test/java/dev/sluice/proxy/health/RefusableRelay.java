package dev.sluice.proxy.health;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP relay on loopback in front of a real server that can stop taking new connections while
 * the ones it carries keep working: what a backend at its connection limit, or behind a full
 * accept queue, looks like to the proxy. It can also cut the connections it carries, as a network
 * fault does, while the server goes on with what it was doing.
 */
public final class RefusableRelay implements AutoCloseable {

    private final int port;
    private final int targetPort;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private volatile ServerSocket listening;

    public RefusableRelay(int targetPort) throws IOException {
        this.targetPort = targetPort;
        this.listening = listen(0);
        this.port = listening.getLocalPort();
    }

    public int port() {
        return port;
    }

    /** Closes every connection it carries, both ways; new ones are taken as before. */
    public void cut() {
        sockets.forEach(RefusableRelay::closeQuietly);
        sockets.clear();
    }

    /** New connections are refused (nothing listens on the port); open ones go on. */
    synchronized void refuse() throws IOException {
        listening.close();
    }

    /** New connections are taken again, on the same port. */
    synchronized void accept() throws IOException {
        if (listening.isClosed()) {
            listening = listen(port);
        }
    }

    private ServerSocket listen(int on) throws IOException {
        ServerSocket server = new ServerSocket();
        server.setReuseAddress(true);
        server.bind(new InetSocketAddress("127.0.0.1", on));
        Thread.ofVirtual().start(() -> acceptLoop(server));
        return server;
    }

    private void acceptLoop(ServerSocket server) {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                Socket target = new Socket("127.0.0.1", targetPort);
                sockets.add(client);
                sockets.add(target);
                Thread.ofVirtual().start(() -> pump(client, target));
                Thread.ofVirtual().start(() -> pump(target, client));
            } catch (IOException closed) {
                return;
            }
        }
    }

    private static void pump(Socket from, Socket to) {
        try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
            in.transferTo(out);
        } catch (IOException ended) {
            // One side closed: the other goes too.
        } finally {
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
    public synchronized void close() throws IOException {
        listening.close();
        sockets.forEach(RefusableRelay::closeQuietly);
    }
}
