package dev.sluice.protocol.auth;

import java.util.HexFormat;

/**
 * What one side of a login knows of an account's password: the password itself, or only one of
 * mysql_native_password's hashes of it, in MySQL's own terms "hash stage 1", {@code SHA1(password)},
 * and "hash stage 2", {@code SHA1(SHA1(password))}, which mysql.user keeps as {@code *} and 40 hex
 * digits. The password works with every plugin; stage 2 can only check a mysql_native_password
 * client; stage 1, which a server recovers from such a client's scramble, can also log in with
 * mysql_native_password, and with nothing else. {@code toString} never shows the bytes.
 */
public sealed interface Credential {

    /** Hash stage 2 as {@code SELECT PASSWORD('x')} writes it: an asterisk and 40 hex digits. */
    String NATIVE_HASH_SHAPE = "* and 40 hex digits";

    /** mysql_native_password's stage 2 of this credential; not defined for an empty password. */
    byte[] nativeStage2();

    /** True when this is the password itself, which caching_sha2_password needs. */
    default boolean isPassword() {
        return this instanceof Password;
    }

    /** The password as UTF-8 bytes; empty for none. */
    record Password(byte[] utf8) implements Credential {
        public Password {
            utf8 = utf8.clone();
        }

        @Override
        public byte[] utf8() {
            return utf8.clone();
        }

        public boolean empty() {
            return utf8.length == 0;
        }

        @Override
        public byte[] nativeStage2() {
            return Digests.sha1(Digests.sha1(utf8));
        }

        @Override
        public String toString() {
            return "Password[" + (utf8.length == 0 ? "empty" : "hidden") + "]";
        }
    }

    /** {@code SHA1(password)}: logs in with mysql_native_password only. */
    record NativeStage1(byte[] sha1) implements Credential {
        public NativeStage1 {
            sha1 = checkLength(sha1, "stage 1");
        }

        @Override
        public byte[] sha1() {
            return sha1.clone();
        }

        @Override
        public byte[] nativeStage2() {
            return Digests.sha1(sha1);
        }

        @Override
        public String toString() {
            return "NativeStage1[hidden]";
        }
    }

    /** {@code SHA1(SHA1(password))}: checks a mysql_native_password client, logs in nowhere. */
    record NativeStage2(byte[] sha1) implements Credential {
        public NativeStage2 {
            sha1 = checkLength(sha1, "stage 2");
        }

        @Override
        public byte[] sha1() {
            return sha1.clone();
        }

        @Override
        public byte[] nativeStage2() {
            return sha1.clone();
        }

        @Override
        public String toString() {
            return "NativeStage2[hidden]";
        }
    }

    static Password password(byte[] utf8) {
        return new Password(utf8);
    }

    /**
     * Hash stage 2 from its text form ({@code *2470C0C06DEE42FD1618BB99005ADCA2EC9D1E19}, either case).
     *
     * @throws IllegalArgumentException for another shape; the message never shows the text
     */
    static NativeStage2 parseNativeHash(String text) {
        boolean shaped = text.length() == 41 && text.charAt(0) == '*'
                && text.substring(1).chars().allMatch(c -> Character.digit(c, 16) >= 0);
        if (!shaped) {
            throw new IllegalArgumentException("not a mysql_native_password hash (expected: " + NATIVE_HASH_SHAPE + ")");
        }
        return new NativeStage2(HexFormat.of().parseHex(text, 1, text.length()));
    }

    private static byte[] checkLength(byte[] sha1, String what) {
        if (sha1.length != 20) {
            throw new IllegalArgumentException(what + ": " + sha1.length + " bytes (expected: 20, a SHA-1)");
        }
        return sha1.clone();
    }
}
