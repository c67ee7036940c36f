package dev.sluice.protocol.auth;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * Drives a {@link ClientAuthExchange} against a {@link ServerAuthExchange} in one thread, the way
 * a proxy frontend and backend would over a socket, and records every payload that crossed.
 */
final class InProcessLogin {

    /** OK: header, 0 affected rows, 0 last insert id, SERVER_STATUS_AUTOCOMMIT, 0 warnings. */
    static final byte[] OK = TestPackets.ok();

    private static final int MAX_ROUNDS = 10;

    /** What happened: every payload in order ("C: hex" client to server, "S: hex" the other way) and both ends. */
    record Transcript(List<String> packets, ClientStep clientEnd, ServerStep serverEnd) {

        int clientPackets() {
            return (int) packets.stream().filter(p -> p.startsWith("C:")).count();
        }
    }

    private InProcessLogin() {
    }

    /**
     * @param greetingPlugin           the plugin the server names in HandshakeV10
     * @param clientSupportsPluginAuth whether the client sets CLIENT_PLUGIN_AUTH
     */
    static Transcript run(ClientAuthExchange client, ServerAuthExchange server, String greetingPlugin, byte[] seed,
                          boolean clientSupportsPluginAuth) {
        List<String> packets = new ArrayList<>();
        byte[] pluginData = new byte[seed.length + 1];
        System.arraycopy(seed, 0, pluginData, 0, seed.length);
        ClientAuthExchange.InitialResponse initial = client.start(greetingPlugin, pluginData);
        packets.add("C: " + HexFormat.of().formatHex(initial.authResponse()));
        ServerStep serverStep = server.start(clientSupportsPluginAuth ? initial.pluginName() : null, initial.authResponse());
        for (int round = 0; round < MAX_ROUNDS; round++) {
            ClientStep clientStep;
            switch (serverStep) {
                case ServerStep.Reply reply -> clientStep = toClient(client, reply.payload(), packets);
                case ServerStep.Accept accept -> {
                    for (byte[] before : accept.sendBeforeOk()) {
                        ClientStep step = toClient(client, before, packets);
                        if (!(step instanceof ClientStep.AwaitResult)) {
                            return new Transcript(packets, step, serverStep);
                        }
                    }
                    return new Transcript(packets, toClient(client, OK, packets), serverStep);
                }
                case ServerStep.Reject reject -> {
                    byte[] err = TestPackets.err(reject.errorCode(), reject.sqlState(), reject.message());
                    return new Transcript(packets, toClient(client, err, packets), serverStep);
                }
            }
            switch (clientStep) {
                case ClientStep.Reply reply -> {
                    packets.add("C: " + HexFormat.of().formatHex(reply.payload()));
                    serverStep = server.onClientData(reply.payload());
                }
                default -> {
                    return new Transcript(packets, clientStep, serverStep);
                }
            }
        }
        throw new AssertionError("no end after " + MAX_ROUNDS + " rounds: " + packets);
    }

    private static ClientStep toClient(ClientAuthExchange client, byte[] payload, List<String> packets) {
        packets.add("S: " + HexFormat.of().formatHex(payload));
        return client.onServerPacket(payload);
    }
}
