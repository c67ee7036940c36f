package dev.sluice.protocol.auth;

import static dev.sluice.protocol.Capabilities.CLIENT_CONNECT_ATTRS;
import static dev.sluice.protocol.Capabilities.CLIENT_CONNECT_WITH_DB;
import static dev.sluice.protocol.Capabilities.CLIENT_FOUND_ROWS;
import static dev.sluice.protocol.Capabilities.CLIENT_LONG_FLAG;
import static dev.sluice.protocol.Capabilities.CLIENT_LONG_PASSWORD;
import static dev.sluice.protocol.Capabilities.CLIENT_MULTI_RESULTS;
import static dev.sluice.protocol.Capabilities.CLIENT_PLUGIN_AUTH;
import static dev.sluice.protocol.Capabilities.CLIENT_PLUGIN_AUTH_LENENC_CLIENT_DATA;
import static dev.sluice.protocol.Capabilities.CLIENT_PROTOCOL_41;
import static dev.sluice.protocol.Capabilities.CLIENT_SECURE_CONNECTION;
import static dev.sluice.protocol.Capabilities.CLIENT_TRANSACTIONS;

import dev.sluice.protocol.Commands;
import dev.sluice.protocol.packet.HandshakeResponse41;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A one-thread MySQL server on 127.0.0.1 for driving the server side of the auth plugins with
 * real clients: it greets, runs {@link ServerAuthExchange}, and after OK answers just what
 * Connector/J sends while connecting (its SELECT of @@ variables, SET statements, COM_PING,
 * COM_QUIT). Connections are served one after another.
 */
final class BlockingTestServer implements AutoCloseable {

    static final String SERVER_VERSION = "8.4.0-sluice-auth-test";

    private static final long CAPABILITIES = CLIENT_LONG_PASSWORD | CLIENT_FOUND_ROWS | CLIENT_LONG_FLAG
            | CLIENT_CONNECT_WITH_DB | CLIENT_PROTOCOL_41 | CLIENT_TRANSACTIONS | CLIENT_SECURE_CONNECTION
            | CLIENT_MULTI_RESULTS | CLIENT_PLUGIN_AUTH | CLIENT_CONNECT_ATTRS | CLIENT_PLUGIN_AUTH_LENENC_CLIENT_DATA;
    private static final int SOCKET_TIMEOUT_MILLIS = 10_000;
    private static final Pattern ALIAS = Pattern.compile("\\bAS\\s+(\\w+)", Pattern.CASE_INSENSITIVE);
    private static final Map<String, String> VARIABLES = Map.ofEntries(
            Map.entry("auto_increment_increment", "1"),
            Map.entry("character_set_client", "utf8mb4"),
            Map.entry("character_set_connection", "utf8mb4"),
            Map.entry("character_set_results", "utf8mb4"),
            Map.entry("character_set_server", "utf8mb4"),
            Map.entry("collation_server", "utf8mb4_0900_ai_ci"),
            Map.entry("collation_connection", "utf8mb4_0900_ai_ci"),
            Map.entry("init_connect", ""),
            Map.entry("interactive_timeout", "28800"),
            Map.entry("license", "GPL"),
            Map.entry("lower_case_table_names", "0"),
            Map.entry("max_allowed_packet", "67108864"),
            Map.entry("net_write_timeout", "60"),
            Map.entry("performance_schema", "0"),
            Map.entry("sql_mode", "STRICT_TRANS_TABLES"),
            Map.entry("system_time_zone", "UTC"),
            Map.entry("time_zone", "SYSTEM"),
            Map.entry("transaction_isolation", "REPEATABLE-READ"),
            Map.entry("wait_timeout", "28800"));

    /** One finished login: the client's first plugin, every auth packet after HandshakeResponse41, and the server's end. */
    record Login(String user, String clientPlugin, List<String> packets, ServerStep end) {
    }

    private final Map<String, String> passwords;
    private final String greetingPlugin;
    private final String accountPlugin;
    private final boolean forceFullAuth;
    private final ServerSocket serverSocket;
    private final Thread thread;
    private final BlockingQueue<Login> logins = new LinkedBlockingQueue<>();
    private final BlockingQueue<Throwable> failures = new LinkedBlockingQueue<>();

    BlockingTestServer(Map<String, String> passwords, String greetingPlugin, String accountPlugin, boolean forceFullAuth)
            throws IOException {
        this.passwords = Map.copyOf(passwords);
        this.greetingPlugin = greetingPlugin;
        this.accountPlugin = accountPlugin;
        this.forceFullAuth = forceFullAuth;
        this.serverSocket = new ServerSocket(0, 4, InetAddress.getLoopbackAddress());
        this.thread = new Thread(this::serve, "auth-test-server");
        thread.setDaemon(true);
        thread.start();
    }

    int port() {
        return serverSocket.getLocalPort();
    }

    /** The next finished login, waiting at most 10 s; fails with what the server thread hit, if anything. */
    Login nextLogin() throws InterruptedException {
        Login login = logins.poll(SOCKET_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
        Throwable failure = failures.poll();
        if (failure != null) {
            throw new AssertionError("test server failed", failure);
        }
        if (login == null) {
            throw new AssertionError("no login finished within " + SOCKET_TIMEOUT_MILLIS + " ms");
        }
        return login;
    }

    @Override
    public void close() throws IOException {
        serverSocket.close();
        try {
            thread.join(SOCKET_TIMEOUT_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void serve() {
        while (!serverSocket.isClosed()) {
            try (Socket socket = serverSocket.accept()) {
                socket.setSoTimeout(SOCKET_TIMEOUT_MILLIS);
                handle(socket);
            } catch (SocketException closed) {
                if (!serverSocket.isClosed()) {
                    failures.add(closed);
                }
            } catch (IOException | RuntimeException e) {
                failures.add(e);
            }
        }
    }

    private void handle(Socket socket) throws IOException {
        InputStream in = socket.getInputStream();
        OutputStream out = socket.getOutputStream();
        byte[] seed = AuthSeed.generate();
        PacketIo.write(out, 0, TestPackets.greeting(SERVER_VERSION, seed, CAPABILITIES, greetingPlugin));
        PacketIo.Packet response = PacketIo.read(in);
        HandshakeResponse41 request = TestPackets.parseHandshakeResponse(response.payload());
        String password = passwords.get(request.username());
        ServerLogin login = new ServerLogin(request.username(), socket.getInetAddress().getHostAddress(),
                password == null ? null : password.getBytes(StandardCharsets.UTF_8), seed, false, TestKeys.KEYS, forceFullAuth);
        ServerAuthExchange exchange = new ServerAuthExchange(AuthPlugins.standard(), login, accountPlugin);
        List<String> packets = new ArrayList<>();
        int sequenceId = response.sequenceId() + 1;
        ServerStep step = exchange.start(request.authPluginName(), request.authResponse());
        while (step instanceof ServerStep.Reply reply) {
            packets.add("S: " + HexFormat.of().formatHex(reply.payload()));
            PacketIo.write(out, sequenceId++, reply.payload());
            PacketIo.Packet next = PacketIo.read(in);
            if (next.sequenceId() != sequenceId) {
                throw new IllegalStateException("client sequence id " + next.sequenceId() + " (expected: " + sequenceId + ")");
            }
            sequenceId++;
            packets.add("C: " + HexFormat.of().formatHex(next.payload()));
            step = exchange.onClientData(next.payload());
        }
        switch (step) {
            case ServerStep.Accept accept -> {
                for (byte[] payload : accept.sendBeforeOk()) {
                    packets.add("S: " + HexFormat.of().formatHex(payload));
                    PacketIo.write(out, sequenceId++, payload);
                }
                PacketIo.write(out, sequenceId, TestPackets.ok());
                logins.add(new Login(request.username(), request.authPluginName(), packets, step));
                commands(in, out);
            }
            case ServerStep.Reject reject -> {
                PacketIo.write(out, sequenceId, TestPackets.err(reject.errorCode(), reject.sqlState(), reject.message()));
                logins.add(new Login(request.username(), request.authPluginName(), packets, step));
            }
            case ServerStep.Reply reply -> throw new IllegalStateException("unreachable: the loop above consumes replies");
        }
    }

    private void commands(InputStream in, OutputStream out) throws IOException {
        while (true) {
            PacketIo.Packet packet = PacketIo.read(in);
            int command = packet.payload()[0] & 0xFF;
            switch (command) {
                case Commands.COM_QUIT -> {
                    return;
                }
                case Commands.COM_PING -> PacketIo.write(out, 1, TestPackets.ok());
                case Commands.COM_QUERY -> query(out, new String(packet.payload(), 1, packet.payload().length - 1, StandardCharsets.UTF_8));
                default -> PacketIo.write(out, 1, TestPackets.err(1047, "08S01", "Unknown command " + Commands.name(command)));
            }
        }
    }

    private void query(OutputStream out, String sql) throws IOException {
        if (!sql.contains("@@")) {
            PacketIo.write(out, 1, TestPackets.ok());
            return;
        }
        List<String> columns = new ArrayList<>();
        List<String> values = new ArrayList<>();
        Matcher alias = ALIAS.matcher(sql);
        while (alias.find()) {
            columns.add(alias.group(1));
            values.add(VARIABLES.get(alias.group(1)));
        }
        int sequenceId = 1;
        for (byte[] payload : TestPackets.oneRowResultSet(columns, values)) {
            PacketIo.write(out, sequenceId++, payload);
        }
    }
}
