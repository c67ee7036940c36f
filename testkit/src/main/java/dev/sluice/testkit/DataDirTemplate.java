package dev.sluice.testkit;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;

/**
 * A data folder installed once per machine, with the {@link TestUsers} accounts already in it,
 * that each server copies on its first start. Copying takes a fraction of a second; running
 * mariadb-install-db for every server took 1.5 to 4.5 s each on this two-core machine.
 *
 * <p>The folder name carries a hash of the version, install options and account SQL, so a change
 * to any of them builds a new template instead of reusing a stale one.
 */
final class DataDirTemplate {

    private static final String COMPLETE_MARKER = ".complete";
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(60);
    private static final System.Logger LOG = System.getLogger(DataDirTemplate.class.getName());

    private static DataDirTemplate shared;

    private final Path dataDir;

    private DataDirTemplate(Path dataDir) {
        this.dataDir = dataDir;
    }

    static synchronized DataDirTemplate shared(MariaDbBinaries binaries) {
        if (shared == null) {
            shared = findOrBuild(binaries);
        }
        return shared;
    }

    /** Copies the template into {@code target}, an empty or missing folder. */
    void copyTo(Path target) {
        try {
            Folders.copyTree(dataDir, target);
        } catch (IOException e) {
            throw new MariaDbException("cannot copy the data folder template " + dataDir + " to " + target, e);
        }
    }

    private static DataDirTemplate findOrBuild(MariaDbBinaries binaries) {
        String name = "datadir-" + binaries.version() + "-" + recipeHash(binaries);
        Path root = MariaDbBinaries.CACHE_ROOT.resolve(name);
        try (FileChannel lockFile = FileChannel.open(MariaDbBinaries.CACHE_ROOT.resolve(name + ".lock"),
                StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            lockFile.lock(); // held until the channel closes
            if (!Files.exists(root.resolve(COMPLETE_MARKER))) {
                build(binaries, root);
            }
        } catch (IOException e) {
            throw new MariaDbException("cannot build the data folder template " + root, e);
        }
        return new DataDirTemplate(new ServerFolder(root).dataDir());
    }

    /** Install, start on a socket only, create the accounts, shut down cleanly, publish atomically. */
    private static void build(MariaDbBinaries binaries, Path root) throws IOException {
        long started = System.nanoTime();
        Folders.deleteAbandonedStaging(root);
        Folders.deleteTree(root);
        Path staging = Folders.stagingFor(root);
        ServerFolder folder = ServerFolder.create(staging);
        ServerSetup.install("template", binaries, folder);
        ServerProcess process = new ServerProcess("template", folder);
        if (process.start(ServerSetup.socketOnlyCommand(binaries, folder), START_TIMEOUT)
                != ServerProcess.StartResult.READY) {
            throw new MariaDbException("template: mariadbd without networking reported a port in use");
        }
        try {
            BundledClient.run(binaries, folder.socket(), ServerSetup.accountsSql());
        } finally {
            process.stop(STOP_TIMEOUT);
        }
        Folders.deleteTree(folder.tmpDir());
        Files.createFile(staging.resolve(COMPLETE_MARKER));
        Files.move(staging, root, StandardCopyOption.ATOMIC_MOVE);
        LOG.log(Level.INFO, "Built the data folder template {0} in {1} ms", root, (System.nanoTime() - started) / 1_000_000);
    }

    private static String recipeHash(MariaDbBinaries binaries) {
        String recipe = binaries.version() + "\n" + ServerSetup.INSTALL_OPTIONS + "\n" + ServerSetup.accountsSql();
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(recipe.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 6);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
