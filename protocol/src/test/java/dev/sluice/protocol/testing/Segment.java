package dev.sluice.protocol.testing;

/**
 * Bytes that became readable, in stream order, when one captured frame arrived: a retransmitted
 * frame yields no segment, and a frame that fills a gap yields its own bytes plus the
 * out-of-order bytes it made contiguous.
 *
 * @param frame the 1-based frame number in the capture file (as Wireshark numbers frames)
 */
public record Segment(Direction direction, byte[] bytes, int frame) {
}
