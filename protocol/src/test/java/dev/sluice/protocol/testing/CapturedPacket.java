package dev.sluice.protocol.testing;

/**
 * A physical MySQL packet from a capture, with where it came from.
 *
 * @param index position among the packets of its direction on its connection (0-based)
 * @param frame the capture frame that carried the packet's first header byte
 */
public record CapturedPacket(String file, Direction direction, int index, int seq, int frame, byte[] payload) {

    /** First payload byte as an unsigned int, or -1 for an empty payload. */
    public int firstByte() {
        return payload.length == 0 ? -1 : payload[0] & 0xFF;
    }
}
