package dev.sluice.config;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Reads the {@code tls} section. Certificate files are checked when their side is enabled, so a
 * wrong path stops start-up (or a reload) here rather than at the first TLS client.
 */
final class TlsReader {

    static final List<String> TLS_KEYS = List.of("client", "backend");
    static final List<String> CLIENT_KEYS = List.of("enabled", "cert", "key", "required");
    static final List<String> BACKEND_KEYS = List.of("enabled", "verify", "ca", "server_public_key",
            "allow_public_key_retrieval");

    private static final String BOOLEAN = "true or false";
    private static final String PEM_FILE = "a PEM file path";

    private final Problems problems;
    private final Path baseDir;

    TlsReader(Problems problems, Path baseDir) {
        this.problems = problems;
        this.baseDir = baseDir;
    }

    TlsConfig read(YamlMapping tls) {
        ClientTlsConfig client = readClient(tls.section("client", CLIENT_KEYS));
        BackendTlsConfig backend = readBackend(tls.section("backend", BACKEND_KEYS));
        return new TlsConfig(client, backend);
    }

    private ClientTlsConfig readClient(YamlMapping client) {
        int before = problems.count();
        boolean enabled = client.scalar("enabled", BOOLEAN).flatMap(YamlScalar::bool).orElse(false);
        Optional<Path> cert = pemFile(client, "cert", enabled);
        Optional<Path> key = pemFile(client, "key", enabled);
        boolean required = client.scalar("required", BOOLEAN).flatMap(YamlScalar::bool).orElse(false);
        return client.build(before, () -> new ClientTlsConfig(enabled, cert, key, required), ClientTlsConfig.defaults());
    }

    private BackendTlsConfig readBackend(YamlMapping backend) {
        int before = problems.count();
        boolean enabled = backend.scalar("enabled", BOOLEAN).flatMap(YamlScalar::bool).orElse(false);
        // Verified whenever TLS is on, unless told otherwise: an unverified link gives the backend
        // logins' passwords to whoever answers at the address.
        boolean verify = backend.scalar("verify", BOOLEAN).flatMap(YamlScalar::bool).orElse(enabled);
        Optional<Path> ca = pemFile(backend, "ca", enabled && verify);
        Optional<Path> serverKey = pemFile(backend, "server_public_key", true);
        boolean retrieve = backend.scalar("allow_public_key_retrieval", BOOLEAN).flatMap(YamlScalar::bool).orElse(false);
        return backend.build(before, () -> new BackendTlsConfig(enabled, verify, ca, serverKey, retrieve),
                BackendTlsConfig.defaults());
    }

    private Optional<Path> pemFile(YamlMapping section, String key, boolean inUse) {
        Optional<YamlScalar> value = section.scalar(key, PEM_FILE);
        Optional<Path> path = value.flatMap(v -> v.path(baseDir));
        if (inUse && path.isPresent()) {
            checkReadable(value.get(), path.get());
        }
        return path;
    }

    private static void checkReadable(YamlScalar at, Path file) {
        if (!Files.exists(file)) {
            at.fail(file + ": no such file (expected: a readable PEM file)");
        } else if (Files.isDirectory(file)) {
            at.fail(file + ": is a directory (expected: a readable PEM file)");
        } else if (!Files.isReadable(file)) {
            at.fail(file + ": cannot be read (expected: a readable PEM file)");
        }
    }
}
