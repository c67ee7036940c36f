package dev.sluice.protocol.auth;

import java.util.Objects;

/**
 * One client's login attempt as the server side sees it.
 *
 * @param user          the user name from HandshakeResponse41
 * @param host          the client's host as it appears in ERR 1045 ('app'@'HOST')
 * @param password      the account's password as UTF-8 bytes, or null when there is no such user:
 *                      the exchange then runs to its end like a wrong password would, and fails
 * @param seed          the 20-byte scramble sent in HandshakeV10
 * @param secure        the connection is TLS (caching_sha2_password then takes the password in clear)
 * @param rsaKeys       the key pair for caching_sha2_password full authentication without TLS
 * @param forceFullAuth skip caching_sha2_password fast authentication, as MySQL does on a cache miss
 */
public record ServerLogin(String user, String host, byte[] password, byte[] seed, boolean secure,
                          RsaKeyPair rsaKeys, boolean forceFullAuth) {

    public ServerLogin {
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(rsaKeys, "rsaKeys");
        if (seed.length != AuthSeed.LENGTH) {
            throw new IllegalArgumentException("seed: " + seed.length + " bytes (expected: " + AuthSeed.LENGTH + ")");
        }
        password = password == null ? null : password.clone();
        seed = seed.clone();
    }

    public boolean knownUser() {
        return password != null;
    }

    @Override
    public byte[] password() {
        return password == null ? null : password.clone();
    }

    @Override
    public byte[] seed() {
        return seed.clone();
    }

    /** The password the checks compare against: the account's, or a random stand-in for an unknown user. */
    byte[] passwordOrStandIn() {
        return password == null ? Digests.UNKNOWN_USER_PASSWORD : password;
    }

    @Override
    public String toString() {
        return "ServerLogin[user=" + user + ", host=" + host + ", knownUser=" + knownUser() + ", secure=" + secure
                + ", forceFullAuth=" + forceFullAuth + "]";
    }
}
