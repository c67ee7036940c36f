package dev.sluice.protocol.testing;

/**
 * One physical MySQL packet: the sequence id from its 4-byte header and its payload (a payload of
 * 0xFFFFFF bytes is half of a split packet; packets are not joined here).
 */
public record RawPacket(int seq, byte[] payload) {
}
