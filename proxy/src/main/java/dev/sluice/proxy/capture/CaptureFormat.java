package dev.sluice.proxy.capture;

import dev.sluice.config.CaptureConfig;

/** How captured statements are laid out in the file. Writer thread only. */
interface CaptureFormat {

    static CaptureFormat of(CaptureConfig config, WallClock clock) {
        return switch (config.format()) {
            case JSONL -> new JsonLinesFormat(clock);
            case SLOWLOG -> new SlowLogFormat(clock);
        };
    }

    /** What every new file starts with (after a rotation too); empty for none. */
    String header();

    /** Forgets what the previous file said (the slow log's last schema) after a rotation. */
    default void newFile() {
    }

    /**
     * Appends one statement, rendered by {@code text}, to the empty {@code out}; leaves it empty for
     * a statement this format has no entry for.
     */
    void append(StringBuilder out, CapturedStatement statement, StatementRenderer text);
}
