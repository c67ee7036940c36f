package dev.sluice.proxy.mirror;

/**
 * Where mirroring stands.
 *
 * @param shadow      the shadow's address, or null when off
 * @param statements  reads or all, or null when off
 * @param waiting     copies in the queue now
 * @param waitingBytes the bytes they hold
 * @param queueSize   how many may wait
 */
public record MirrorStatus(boolean running, String shadow, String statements, int connections, int waiting,
                           long waitingBytes, int queueSize) {
}
