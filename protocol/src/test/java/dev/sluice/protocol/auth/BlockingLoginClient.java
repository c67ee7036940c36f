package dev.sluice.protocol.auth;

import static dev.sluice.protocol.Capabilities.CLIENT_LONG_PASSWORD;
import static dev.sluice.protocol.Capabilities.CLIENT_MULTI_RESULTS;
import static dev.sluice.protocol.Capabilities.CLIENT_PLUGIN_AUTH;
import static dev.sluice.protocol.Capabilities.CLIENT_PLUGIN_AUTH_LENENC_CLIENT_DATA;
import static dev.sluice.protocol.Capabilities.CLIENT_PROTOCOL_41;
import static dev.sluice.protocol.Capabilities.CLIENT_SECURE_CONNECTION;
import static dev.sluice.protocol.Capabilities.CLIENT_TRANSACTIONS;

import dev.sluice.protocol.Commands;
import dev.sluice.protocol.packet.HandshakeV10;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * Logs into a real server over a blocking socket with {@link ClientAuthExchange}, the way the
 * proxy's backend side will (without TLS): greeting, HandshakeResponse41, then the exchange until
 * OK or ERR; on OK it sends COM_QUIT.
 */
final class BlockingLoginClient {

    private static final long CAPABILITIES = CLIENT_LONG_PASSWORD | CLIENT_PROTOCOL_41 | CLIENT_TRANSACTIONS
            | CLIENT_SECURE_CONNECTION | CLIENT_MULTI_RESULTS | CLIENT_PLUGIN_AUTH | CLIENT_PLUGIN_AUTH_LENENC_CLIENT_DATA;
    private static final int TIMEOUT_MILLIS = 10_000;
    private static final int MAX_ROUNDS = 10;

    /** The greeting's plugin, the plugin the login ended with, every auth packet after HandshakeResponse41, and the end. */
    record Result(String greetingPlugin, String finalPlugin, List<String> packets, ClientStep end) {
    }

    private BlockingLoginClient() {
    }

    static Result login(String host, int port, String user, String password, ClientAuthOptions options) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), TIMEOUT_MILLIS);
            socket.setSoTimeout(TIMEOUT_MILLIS);
            InputStream in = socket.getInputStream();
            OutputStream out = socket.getOutputStream();
            HandshakeV10 greeting = TestPackets.parseGreeting(PacketIo.read(in).payload());
            ClientAuthExchange exchange = new ClientAuthExchange(AuthPlugins.standard(),
                    password.getBytes(StandardCharsets.UTF_8), options);
            ClientAuthExchange.InitialResponse initial = exchange.start(greeting.authPluginName(), greeting.scramble());
            int sequenceId = 1;
            PacketIo.write(out, sequenceId++, TestPackets.handshakeResponse(CAPABILITIES, user, initial.authResponse(),
                    initial.pluginName()));
            List<String> packets = new ArrayList<>();
            for (int round = 0; round < MAX_ROUNDS; round++) {
                PacketIo.Packet packet = PacketIo.read(in);
                if (packet.sequenceId() != sequenceId) {
                    throw new IllegalStateException("server sequence id " + packet.sequenceId() + " (expected: " + sequenceId + ")");
                }
                sequenceId++;
                packets.add("S: " + HexFormat.of().formatHex(packet.payload()));
                ClientStep step = exchange.onServerPacket(packet.payload());
                switch (step) {
                    case ClientStep.Reply reply -> {
                        packets.add("C: " + HexFormat.of().formatHex(reply.payload()));
                        PacketIo.write(out, sequenceId++, reply.payload());
                    }
                    case ClientStep.AwaitResult await -> {
                        // The server's OK or ERR comes next.
                    }
                    case ClientStep.Authenticated ok -> {
                        PacketIo.write(out, 0, new byte[] {(byte) Commands.COM_QUIT});
                        return new Result(greeting.authPluginName(), exchange.pluginName(), packets, step);
                    }
                    case ClientStep.Rejected rejected -> {
                        return new Result(greeting.authPluginName(), exchange.pluginName(), packets, step);
                    }
                    case ClientStep.Abort abort -> {
                        return new Result(greeting.authPluginName(), exchange.pluginName(), packets, step);
                    }
                }
            }
            throw new IllegalStateException("no OK or ERR after " + MAX_ROUNDS + " packets: " + packets);
        }
    }
}
