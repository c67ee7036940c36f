package dev.sluice.proxy.capture;

import dev.sluice.config.CaptureConfig;
import java.util.Optional;

/**
 * Whether capture is on, with what settings, and why it stopped if it stopped by itself.
 *
 * @param config  the settings of the current (or last) capture
 * @param failure why capture turned itself off (disk full, unwritable path), if it did
 */
public record CaptureStatus(boolean running, CaptureConfig config, Optional<String> failure) {

    /** One line for logs and the admin port, e.g. {@code capture on: /var/log/sluice/capture.jsonl (jsonl, sql full)}. */
    public String describe() {
        String where = config.file().map(Object::toString).orElse("no file");
        String settings = " (" + config.format().configName() + ", sql " + config.sql().configName() + ")";
        if (running) {
            return "capture on: " + where + settings;
        }
        return failure.map(reason -> "capture off after a failure: " + reason).orElse("capture off");
    }
}
