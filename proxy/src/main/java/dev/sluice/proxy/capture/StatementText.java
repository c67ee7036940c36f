package dev.sluice.proxy.capture;

/**
 * What a statement's text gives, worked out once per text: prepared statements' texts are the
 * same array for every execute, so the writer keeps these by that array.
 *
 * @param text       the text as decoded (not redacted)
 * @param redacted   the text with passwords masked (the same instance when it had none)
 * @param digestHex  the digest as 16 hex digits
 * @param digestText the normalized statement
 * @param secret     the text names PASSWORD or IDENTIFIED, so values bound into it may be secrets
 */
record StatementText(String text, String redacted, String digestHex, String digestText, boolean secret) {

    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    static String hex(long value) {
        char[] out = new char[16];
        for (int i = 15; i >= 0; i--) {
            out[i] = HEX[(int) (value & 15)];
            value >>>= 4;
        }
        return new String(out);
    }
}
