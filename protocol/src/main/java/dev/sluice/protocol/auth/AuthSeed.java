package dev.sluice.protocol.auth;

import dev.sluice.protocol.ProtocolException;
import java.security.SecureRandom;
import java.util.Arrays;

/**
 * The 20-byte scramble (nonce) a server sends in HandshakeV10 and AuthSwitchRequest, which
 * mysql_native_password and caching_sha2_password hash the password with.
 */
public final class AuthSeed {

    public static final int LENGTH = 20;

    private static final SecureRandom RANDOM = new SecureRandom();

    private AuthSeed() {
    }

    /**
     * A fresh seed. Like MySQL's, its bytes are 7-bit and never NUL or '$': clients read the
     * greeting's scramble as a NUL-terminated string, so a NUL inside would cut it short.
     */
    public static byte[] generate() {
        byte[] seed = new byte[LENGTH];
        RANDOM.nextBytes(seed);
        for (int i = 0; i < LENGTH; i++) {
            seed[i] &= 0x7F;
            if (seed[i] == 0 || seed[i] == '$') {
                seed[i]++;
            }
        }
        return seed;
    }

    /**
     * The seed inside auth-plugin-data as it arrives: 20 bytes, or 21 when the server added the
     * trailing NUL (MySQL and MariaDB both do, in the greeting and in AuthSwitchRequest).
     */
    public static byte[] fromPluginData(byte[] pluginData) {
        if (pluginData.length == LENGTH || (pluginData.length == LENGTH + 1 && pluginData[LENGTH] == 0)) {
            return Arrays.copyOf(pluginData, LENGTH);
        }
        throw new ProtocolException("auth-plugin-data: " + pluginData.length
                + " bytes (expected: 20, or 21 ending in NUL) in phase AUTH");
    }
}
