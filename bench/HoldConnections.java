import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Opens COUNT MySQL client connections (plaintext, mysql_native_password, no default schema),
 * holds them idle for HOLD_SECONDS, then sends COM_PING on each to prove the session still
 * reaches its backend, and quits. Meant to run in its own process, so the proxy under test gets
 * the whole per-process open-file limit for itself.
 *
 * <p>Usage: {@code java HoldConnections.java HOST PORT USER PASSWORD COUNT [CONCURRENCY]
 * [HOLD_SECONDS] [DEADLINE_SECONDS]}. Prints {@code READY held=N failed=M ...} once every attempt
 * has finished (or the deadline passed), {@code PING ok=N failed=M} after the hold and
 * {@code DONE} at the end; error messages are tallied by text.
 *
 * <p>Hand-rolled on purpose: a JDBC driver would add its own per-connection memory and queries,
 * and a benchmark of idle sessions should send nothing but the handshake.
 */
public final class HoldConnections {

    // https://dev.mysql.com/doc/dev/mysql-server/latest/group__group__cs__capabilities__flags.html
    private static final int CLIENT_LONG_PASSWORD = 0x1;
    private static final int CLIENT_PROTOCOL_41 = 0x200;
    private static final int CLIENT_TRANSACTIONS = 0x2000;
    private static final int CLIENT_SECURE_CONNECTION = 0x8000;
    private static final int CLIENT_PLUGIN_AUTH = 0x80000;
    private static final String NATIVE = "mysql_native_password";
    private static final int UTF8MB4_GENERAL_CI = 45;
    private static final int COM_QUIT = 0x01;
    private static final int COM_PING = 0x0e;
    private static final int MAX_ERROR_KINDS = 20;

    private final String host;
    private final int port;
    private final String user;
    private final byte[] password;
    private final Map<String, AtomicInteger> errors = new ConcurrentHashMap<>();

    private HoldConnections(String host, int port, String user, String password) {
        this.host = host;
        this.port = port;
        this.user = user;
        this.password = password.getBytes(StandardCharsets.UTF_8);
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 5) {
            System.err.println("usage: java HoldConnections.java HOST PORT USER PASSWORD COUNT [CONCURRENCY] [HOLD_SECONDS]"
                    + " [DEADLINE_SECONDS]");
            System.exit(2);
        }
        int count = Integer.parseInt(args[4]);
        int concurrency = args.length > 5 ? Integer.parseInt(args[5]) : 200;
        int holdSeconds = args.length > 6 ? Integer.parseInt(args[6]) : 10;
        int deadlineSeconds = args.length > 7 ? Integer.parseInt(args[7]) : 300;
        HoldConnections holder = new HoldConnections(args[0], Integer.parseInt(args[1]), args[2], args[3]);
        holder.run(count, concurrency, holdSeconds, deadlineSeconds);
    }

    private void run(int count, int concurrency, int holdSeconds, int deadlineSeconds) throws InterruptedException {
        ConcurrentLinkedQueue<Socket> held = new ConcurrentLinkedQueue<>();
        long start = System.nanoTime();
        long deadline = start + TimeUnit.SECONDS.toNanos(deadlineSeconds);
        Semaphore slots = new Semaphore(concurrency);
        AtomicInteger failed = new AtomicInteger();
        AtomicInteger skipped = new AtomicInteger();
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < count; i++) {
                slots.acquire();
                if (System.nanoTime() - deadline > 0) {
                    slots.release();
                    skipped.set(count - i);
                    break;
                }
                threads.submit(() -> {
                    try {
                        held.add(open());
                    } catch (IOException | RuntimeException e) {
                        failed.incrementAndGet();
                        tally(e);
                    } finally {
                        slots.release();
                    }
                });
                if ((i + 1) % 1000 == 0) {
                    System.out.printf("progress attempted=%d held=%d failed=%d elapsed=%.1fs%n", i + 1, held.size(),
                            failed.get(), seconds(start));
                }
            }
        }
        System.out.printf("READY held=%d failed=%d skipped=%d elapsed=%.1fs rate=%.0f/s%n", held.size(), failed.get(),
                skipped.get(), seconds(start), held.size() / Math.max(seconds(start), 1e-3));
        printErrors();
        System.out.flush();
        Thread.sleep(TimeUnit.SECONDS.toMillis(holdSeconds));
        ping(held, concurrency);
        quit(held);
        System.out.println("DONE");
    }

    private Socket open() throws IOException {
        Socket socket = new Socket();
        boolean ok = false;
        try {
            socket.setTcpNoDelay(true);
            socket.connect(new InetSocketAddress(host, port), 10_000);
            socket.setSoTimeout(30_000);
            login(socket);
            ok = true;
            return socket;
        } finally {
            if (!ok) {
                socket.close();
            }
        }
    }

    // https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_connection_phase_packets_protocol_handshake_v10.html
    private void login(Socket socket) throws IOException {
        DataInputStream in = new DataInputStream(socket.getInputStream());
        OutputStream out = socket.getOutputStream();
        Packet greeting = Packet.read(in);
        byte[] g = greeting.payload();
        if ((g[0] & 0xff) == 0xff) {
            throw new IOException("greeting: " + errText(g));
        }
        if (g[0] != 10) {
            throw new IOException("greeting: protocol version " + g[0] + " (expected: 10)");
        }
        int pos = indexOf(g, 1, (byte) 0) + 1 + 4;
        byte[] seed = new byte[20];
        System.arraycopy(g, pos, seed, 0, 8);
        pos += 8 + 1 + 2 + 1 + 2 + 2 + 1 + 10;
        System.arraycopy(g, pos, seed, 8, 12);

        byte[] user = this.user.getBytes(StandardCharsets.UTF_8);
        byte[] plugin = NATIVE.getBytes(StandardCharsets.US_ASCII);
        byte[] scramble = scramble(seed);
        byte[] response = new byte[4 + 4 + 1 + 23 + user.length + 1 + 1 + scramble.length + plugin.length + 1];
        int caps = CLIENT_LONG_PASSWORD | CLIENT_PROTOCOL_41 | CLIENT_TRANSACTIONS | CLIENT_SECURE_CONNECTION
                | CLIENT_PLUGIN_AUTH;
        int p = putInt(response, 0, caps);
        p = putInt(response, p, 1 << 24);
        response[p++] = UTF8MB4_GENERAL_CI;
        p += 23;
        System.arraycopy(user, 0, response, p, user.length);
        p += user.length + 1;
        response[p++] = (byte) scramble.length;
        System.arraycopy(scramble, 0, response, p, scramble.length);
        p += scramble.length;
        System.arraycopy(plugin, 0, response, p, plugin.length);
        Packet.write(out, greeting.sequenceId() + 1, response);

        Packet reply = Packet.read(in);
        int kind = reply.payload()[0] & 0xff;
        if (kind == 0xfe) {
            // Auth switch: the server wants another plugin or a fresh seed.
            byte[] r = reply.payload();
            int end = indexOf(r, 1, (byte) 0);
            String name = new String(r, 1, end - 1, StandardCharsets.US_ASCII);
            if (!NATIVE.equals(name)) {
                throw new IOException("auth switch to " + name + " (expected: " + NATIVE + ")");
            }
            byte[] newSeed = Arrays.copyOfRange(r, end + 1, end + 1 + 20);
            Packet.write(out, reply.sequenceId() + 1, scramble(newSeed));
            reply = Packet.read(in);
            kind = reply.payload()[0] & 0xff;
        }
        if (kind == 0xff) {
            throw new IOException("login: " + errText(reply.payload()));
        }
        if (kind != 0x00) {
            throw new IOException("login: packet type 0x" + Integer.toHexString(kind) + " (expected: OK or ERR)");
        }
    }

    /** mysql_native_password: SHA1(password) XOR SHA1(seed + SHA1(SHA1(password))). */
    private byte[] scramble(byte[] seed) {
        try {
            MessageDigest sha1 = MessageDigest.getInstance("SHA-1");
            byte[] stage1 = sha1.digest(password);
            byte[] stage2 = sha1.digest(stage1);
            sha1.update(seed, 0, 20);
            sha1.update(stage2);
            byte[] mix = sha1.digest();
            for (int i = 0; i < mix.length; i++) {
                mix[i] ^= stage1[i];
            }
            return mix;
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private void ping(ConcurrentLinkedQueue<Socket> held, int concurrency) throws InterruptedException {
        long start = System.nanoTime();
        AtomicInteger ok = new AtomicInteger();
        AtomicInteger failed = new AtomicInteger();
        Semaphore slots = new Semaphore(concurrency);
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            for (Socket socket : held) {
                slots.acquire();
                threads.submit(() -> {
                    try {
                        Packet.write(socket.getOutputStream(), 0, new byte[] {COM_PING});
                        Packet reply = Packet.read(new DataInputStream(socket.getInputStream()));
                        if ((reply.payload()[0] & 0xff) != 0x00) {
                            throw new IOException("ping: " + errText(reply.payload()));
                        }
                        ok.incrementAndGet();
                    } catch (IOException | RuntimeException e) {
                        failed.incrementAndGet();
                        tally(e);
                    } finally {
                        slots.release();
                    }
                });
            }
        }
        System.out.printf("PING ok=%d failed=%d elapsed=%.1fs%n", ok.get(), failed.get(), seconds(start));
        if (failed.get() > 0) {
            printErrors();
        }
    }

    private static void quit(ConcurrentLinkedQueue<Socket> held) {
        for (Socket socket : held) {
            try (socket) {
                Packet.write(socket.getOutputStream(), 0, new byte[] {COM_QUIT});
            } catch (IOException e) {
                // Closing anyway; a session that is already gone needs no COM_QUIT.
            }
        }
    }

    private void tally(Exception e) {
        String text = e.getClass().getSimpleName() + ": " + e.getMessage();
        if (errors.size() < MAX_ERROR_KINDS || errors.containsKey(text)) {
            errors.computeIfAbsent(text, k -> new AtomicInteger()).incrementAndGet();
        } else {
            errors.computeIfAbsent("(other errors)", k -> new AtomicInteger()).incrementAndGet();
        }
    }

    private void printErrors() {
        List<Map.Entry<String, AtomicInteger>> sorted = new ArrayList<>(new TreeMap<>(errors).entrySet());
        sorted.sort((a, b) -> b.getValue().get() - a.getValue().get());
        for (Map.Entry<String, AtomicInteger> e : sorted) {
            System.out.printf("error %6d x %s%n", e.getValue().get(), e.getKey());
        }
        errors.clear();
    }

    private static String errText(byte[] err) {
        int code = (err[1] & 0xff) | (err[2] & 0xff) << 8;
        int textStart = err.length > 3 && err[3] == '#' ? 9 : 3;
        return "ERR " + code + " " + new String(err, textStart, err.length - textStart, StandardCharsets.UTF_8);
    }

    private static int indexOf(byte[] bytes, int from, byte value) throws IOException {
        for (int i = from; i < bytes.length; i++) {
            if (bytes[i] == value) {
                return i;
            }
        }
        throw new IOException("no NUL after offset " + from + " in a packet of " + bytes.length + " bytes");
    }

    private static int putInt(byte[] bytes, int at, int value) {
        bytes[at] = (byte) value;
        bytes[at + 1] = (byte) (value >>> 8);
        bytes[at + 2] = (byte) (value >>> 16);
        bytes[at + 3] = (byte) (value >>> 24);
        return at + 4;
    }

    private static double seconds(long startNanos) {
        return (System.nanoTime() - startNanos) / 1e9;
    }

    /** One MySQL packet below 16 MiB: 3-byte little-endian length, sequence id, payload. */
    private record Packet(int sequenceId, byte[] payload) {

        static Packet read(DataInputStream in) throws IOException {
            byte[] header = new byte[4];
            in.readFully(header);
            int length = (header[0] & 0xff) | (header[1] & 0xff) << 8 | (header[2] & 0xff) << 16;
            if (length == 0) {
                throw new EOFException("empty packet (expected: a server reply)");
            }
            byte[] payload = new byte[length];
            in.readFully(payload);
            return new Packet(header[3] & 0xff, payload);
        }

        static void write(OutputStream out, int sequenceId, byte[] payload) throws IOException {
            byte[] packet = new byte[4 + payload.length];
            packet[0] = (byte) payload.length;
            packet[1] = (byte) (payload.length >>> 8);
            packet[2] = (byte) (payload.length >>> 16);
            packet[3] = (byte) sequenceId;
            System.arraycopy(payload, 0, packet, 4, payload.length);
            out.write(packet);
            out.flush();
        }
    }
}
