package dev.sluice.slap;

/**
 * The mysql client's TLS options. Unlike the MariaDB 10.11 client, which turns TLS on by default,
 * slap speaks plaintext unless a TLS option is given, so it compares with {@code --skip-ssl} runs.
 *
 * @param enabled          {@code --ssl}, or implied by any other option here
 * @param ca               {@code --ssl-ca}: a PEM file of trusted certificates
 * @param capath           {@code --ssl-capath}: a folder of PEM files
 * @param cert             {@code --ssl-cert}: the client certificate (PEM)
 * @param key              {@code --ssl-key}: the client key (PEM, PKCS#8 or PKCS#1 RSA)
 * @param cipher           {@code --ssl-cipher}: Java (IANA) cipher suite names, comma separated
 * @param tlsVersion       {@code --tls-version}: e.g. {@code TLSv1.2,TLSv1.3}
 * @param verifyServerCert {@code --ssl-verify-server-cert}: check the host name too
 */
public record SslOptions(boolean enabled, String ca, String capath, String cert, String key,
                         String cipher, String tlsVersion, boolean verifyServerCert) {

    public static final SslOptions DISABLED = new SslOptions(false, null, null, null, null, null, null, false);

    /** Connector/J's sslMode for these options. */
    public String sslMode() {
        if (!enabled) {
            return "DISABLED";
        }
        if (verifyServerCert) {
            return "VERIFY_IDENTITY";
        }
        return ca != null || capath != null ? "VERIFY_CA" : "REQUIRED";
    }
}
