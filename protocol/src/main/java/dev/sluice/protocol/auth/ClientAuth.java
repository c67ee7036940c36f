package dev.sluice.protocol.auth;

import dev.sluice.protocol.packet.AuthMoreData;

/** The client side of one plugin's exchange for one login. */
public interface ClientAuth {

    String pluginName();

    /** The auth response to send first: in HandshakeResponse41, or as the answer to AuthSwitchRequest. */
    byte[] firstResponse();

    /**
     * Handles one AuthMoreData packet from the server.
     *
     * @return {@link ClientStep.Reply}, {@link ClientStep.AwaitResult} or {@link ClientStep.Abort}
     * @throws dev.sluice.protocol.ProtocolException when the packet is not what the plugin expects now
     */
    ClientStep onMoreData(AuthMoreData moreData);
}
