package dev.sluice.protocol.auth;

import java.util.Objects;

/**
 * One client's login attempt as the server side sees it.
 *
 * @param user          the user name from HandshakeResponse41
 * @param host          the client's host as it appears in ERR 1045 ('app'@'HOST')
 * @param credential    what the server knows of the account's password (the password, or only its
 *                      mysql_native_password hash), or null when there is no such user: the exchange
 *                      then runs to its end like a wrong password would, and fails
 * @param seed          the 20-byte scramble sent in HandshakeV10
 * @param secure        the connection is TLS (caching_sha2_password then takes the password in clear)
 * @param rsaKeys       the key pair for caching_sha2_password full authentication without TLS
 * @param forceFullAuth skip caching_sha2_password fast authentication, as MySQL does on a cache miss
 */
public record ServerLogin(String user, String host, Credential credential, byte[] seed, boolean secure,
                          RsaKeys rsaKeys, boolean forceFullAuth) {

    public ServerLogin {
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(rsaKeys, "rsaKeys");
        if (seed.length != AuthSeed.LENGTH) {
            throw new IllegalArgumentException("seed: " + seed.length + " bytes (expected: " + AuthSeed.LENGTH + ")");
        }
        seed = seed.clone();
    }

    /** An account known by its password (UTF-8 bytes), or no account when {@code password} is null. */
    public ServerLogin(String user, String host, byte[] password, byte[] seed, boolean secure, RsaKeys rsaKeys,
                       boolean forceFullAuth) {
        this(user, host, password == null ? null : Credential.password(password), seed, secure, rsaKeys, forceFullAuth);
    }

    public boolean knownUser() {
        return credential != null;
    }

    /**
     * The account's password, or null when there is no such user.
     *
     * @throws IllegalStateException when only its hash is known (the plugins that need the password
     *                               are never started for such an account: see {@link ServerAuthExchange})
     */
    public byte[] password() {
        return switch (credential) {
            case null -> null;
            case Credential.Password password -> password.utf8();
            default -> throw new IllegalStateException("only the mysql_native_password hash of " + user + "'s password is known");
        };
    }

    @Override
    public byte[] seed() {
        return seed.clone();
    }

    /** The password the checks compare against: the account's, or a random stand-in for an unknown user. */
    byte[] passwordOrStandIn() {
        return credential == null ? Digests.UNKNOWN_USER_PASSWORD : password();
    }

    @Override
    public String toString() {
        return "ServerLogin[user=" + user + ", host=" + host + ", knownUser=" + knownUser() + ", secure=" + secure
                + ", forceFullAuth=" + forceFullAuth + "]";
    }
}
