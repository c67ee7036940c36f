package dev.sluice.proxy.sql;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Case-insensitive lookup of a word in the text, without allocating: an open-addressing table of
 * upper-case spellings. Ids below {@link Keyword#count()} are the {@link Keyword} ordinals.
 */
final class KeywordTable {
    static final int RESERVED = 1;
    /** A built-in function: calling it is not an unknown (possibly stored) function call. */
    static final int FUNCTION = 2;
    /** May stand before {@code (} without being a call. */
    static final int STRUCTURAL = 4;
    /** A value keyword such as NULL: a following minus is binary. */
    static final int VALUE = 8;
    /** A character set introducer such as {@code _utf8mb4}. */
    static final int INTRODUCER = 16;
    /** Written upper-case in digests. */
    static final int KEYWORD = 32;

    private static final int MAX_LENGTH = 40;
    private static final String[] WORDS;
    private static final char[][] CHARS;
    private static final int[] HASHES;
    private static final int[] FLAGS;
    private static final int[] SLOTS;
    private static final int MASK;

    static {
        Map<String, Integer> flags = new LinkedHashMap<>();
        for (Keyword k : Keyword.values()) {
            flags.put(k.name(), KEYWORD);
        }
        add(flags, Vocabulary.RESERVED, RESERVED | KEYWORD);
        add(flags, Vocabulary.KEYWORDS, KEYWORD);
        add(flags, Vocabulary.FUNCTIONS, FUNCTION | KEYWORD);
        add(flags, Vocabulary.SPECIAL_FUNCTIONS, FUNCTION | KEYWORD);
        add(flags, Vocabulary.STRUCTURAL, STRUCTURAL | KEYWORD);
        add(flags, Vocabulary.VALUES, VALUE | KEYWORD);
        add(flags, Vocabulary.INTRODUCERS, INTRODUCER);
        WORDS = flags.keySet().toArray(new String[0]);
        CHARS = new char[WORDS.length][];
        HASHES = new int[WORDS.length];
        FLAGS = new int[WORDS.length];
        int size = Integer.highestOneBit(WORDS.length * 4);
        SLOTS = new int[size];
        MASK = size - 1;
        for (int id = 0; id < WORDS.length; id++) {
            FLAGS[id] = flags.get(WORDS[id]);
            String w = WORDS[id];
            if (w.length() > MAX_LENGTH) {
                throw new IllegalStateException("keyword longer than " + MAX_LENGTH + ": " + w);
            }
            CHARS[id] = w.toCharArray();
            HASHES[id] = hashOf(w, 0, w.length());
            if (HASHES[id] == SqlLexer.NO_HASH) {
                throw new IllegalStateException("keyword hash collides with NO_HASH: " + w);
            }
            int slot = mix(HASHES[id]) & MASK;
            while (SLOTS[slot] != 0) {
                slot = (slot + 1) & MASK;
            }
            SLOTS[slot] = id + 1;
        }
    }

    private KeywordTable() {
    }

    private static void add(Map<String, Integer> flags, String list, int flag) {
        for (String word : list.trim().split("\\s+")) {
            flags.merge(word.toUpperCase(Locale.ROOT), flag, (a, b) -> a | b);
        }
    }

    /** The id of the word {@code text[start, end)}, or -1 when it is not in the table. */
    static int lookup(CharSequence text, int start, int end) {
        return lookup(text, start, end, hashOf(text, start, end));
    }

    /** As {@link #lookup(CharSequence, int, int)}, with the word's {@link #hashOf} already known. */
    static int lookup(CharSequence text, int start, int end, int hash) {
        int length = end - start;
        if (hash == SqlLexer.NO_HASH || length <= 0 || length > MAX_LENGTH) {
            return -1;
        }
        for (int slot = mix(hash) & MASK; ; slot = (slot + 1) & MASK) {
            int entry = SLOTS[slot];
            if (entry == 0) {
                return -1;
            }
            int id = entry - 1;
            if (HASHES[id] == hash && CHARS[id].length == length && sameIgnoringCase(CHARS[id], text, start)) {
                return id;
            }
        }
    }

    static int flags(int id) {
        return id < 0 ? 0 : FLAGS[id];
    }

    static boolean has(int id, int flag) {
        return id >= 0 && (FLAGS[id] & flag) != 0;
    }

    /** The upper-case spelling of a word. */
    static String word(int id) {
        return WORDS[id];
    }

    /**
     * The polynomial hash of a word's ASCII upper-case spelling, the same the lexer computes while
     * scanning; {@link SqlLexer#NO_HASH} when a character is outside ASCII (no keyword has one).
     */
    static int hashOf(CharSequence text, int start, int end) {
        int h = 0;
        for (int i = start; i < end; i++) {
            char c = text.charAt(i);
            if (c >= 0x80) {
                return SqlLexer.NO_HASH;
            }
            h = h * 31 + upper(c);
        }
        return h;
    }

    private static int mix(int h) {
        h ^= h >>> 15;
        h *= 0x2c1b3c6d;
        return h ^ (h >>> 12);
    }

    private static boolean sameIgnoringCase(char[] word, CharSequence text, int start) {
        for (int i = 0; i < word.length; i++) {
            if (word[i] != upper(text.charAt(start + i))) {
                return false;
            }
        }
        return true;
    }

    private static char upper(char c) {
        return c >= 'a' && c <= 'z' ? (char) (c - 32) : c;
    }
}
