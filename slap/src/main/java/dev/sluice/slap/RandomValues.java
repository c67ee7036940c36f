package dev.sluice.slap;

import java.util.random.RandomGenerator;

/**
 * The random values mysqlslap puts into generated statements: C {@code random()} numbers
 * (0 to 2^31-1) and 126-character strings over its 60-character alphabet (digits and letters
 * without U and V, exactly as its ALPHANUMERICS table reads).
 */
final class RandomValues {

    static final String ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTWXYZabcdefghijklmnopqrstuvwxyz";
    static final int STRING_LENGTH = 126;

    private final RandomGenerator random;

    RandomValues(RandomGenerator random) {
        this.random = random;
    }

    long number() {
        return random.nextLong(1L << 31);
    }

    String string() {
        char[] chars = new char[STRING_LENGTH];
        for (int i = 0; i < chars.length; i++) {
            chars[i] = ALPHABET.charAt(random.nextInt(ALPHABET.length()));
        }
        return new String(chars);
    }

    int index(int bound) {
        return random.nextInt(bound);
    }
}
