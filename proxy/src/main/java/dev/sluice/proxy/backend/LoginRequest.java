package dev.sluice.proxy.backend;

import dev.sluice.protocol.auth.Credential;
import dev.sluice.proxy.client.ClientOrigin;
import java.util.Objects;

/**
 * What the proxy needs to log into a backend on a client's behalf.
 *
 * @param user             account name
 * @param credential       the password, or the {@code SHA1(password)} recovered from the client's
 *                         mysql_native_password login when the config has only the account's hash
 *                         (it logs in with mysql_native_password only); kept in memory for the
 *                         session's later logins, never logged
 * @param responseShaping  the client's response-shaping capabilities (see {@link CapabilityPolicy})
 * @param charset          collation id for the handshake response
 * @param schema           default schema, or null
 * @param origin           the client the login is for, named to backends that take a PROXY protocol
 *                         header; null for the proxy's own logins
 */
public record LoginRequest(String user, Credential credential, long responseShaping, int charset, String schema,
                           ClientOrigin origin) {

    public LoginRequest {
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(credential, "credential");
    }

    /** A login of the proxy's own, with the password as UTF-8 bytes. */
    public LoginRequest(String user, byte[] password, long responseShaping, int charset, String schema) {
        this(user, Credential.password(password), responseShaping, charset, schema, null);
    }

    public LoginRequest withSchema(String newSchema) {
        return new LoginRequest(user, credential, responseShaping, charset, newSchema, origin);
    }

    /** The same login as the proxy's own, naming no client (KILL connections, which any session may reuse). */
    public LoginRequest withoutOrigin() {
        return new LoginRequest(user, credential, responseShaping, charset, schema, null);
    }

    /** The same client logged in as another account (COM_CHANGE_USER). */
    public LoginRequest as(String newUser, Credential newCredential, int newCharset, String newSchema) {
        return new LoginRequest(newUser, newCredential, responseShaping, newCharset, newSchema, origin);
    }
}
