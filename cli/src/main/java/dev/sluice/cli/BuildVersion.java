package dev.sluice.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import picocli.CommandLine;

/** {@code sluice --version}: the version the build wrote into the jar, and the Java it runs on. */
public final class BuildVersion implements CommandLine.IVersionProvider {

    private static final String RESOURCE = "version.properties";

    /** The project version the jar was built as, e.g. {@code 0.1.0}. */
    public static String version() {
        try (InputStream in = BuildVersion.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing next to " + BuildVersion.class.getName()
                        + ": the jar was not built by Maven");
            }
            Properties properties = new Properties();
            properties.load(in);
            return properties.getProperty("version");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public String[] getVersion() {
        return new String[] {"sluice " + version(),
                "Java " + System.getProperty("java.runtime.version") + " (" + System.getProperty("java.vendor") + "), "
                        + System.getProperty("os.name") + " " + System.getProperty("os.arch")};
    }
}
