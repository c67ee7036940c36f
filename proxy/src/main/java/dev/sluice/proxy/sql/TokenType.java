package dev.sluice.proxy.sql;

/** What a token is. Comments and whitespace are not tokens; executable comments' contents are. */
enum TokenType {
    /** An unquoted identifier or keyword, including one that starts with digits ({@code 1t}). */
    WORD,
    /** {@code `name`}, or {@code "name"} under ANSI_QUOTES. */
    QUOTED_IDENTIFIER,
    /** {@code '...'}, {@code "..."} or {@code N'...'}. */
    STRING,
    /** {@code 12}, {@code 1.5}, {@code .5}, {@code 1e5}. */
    NUMBER,
    /** {@code 0x1F} or {@code X'1F'}. */
    HEX_NUMBER,
    /** {@code 0b101} or {@code B'101'}. */
    BIT_NUMBER,
    /** {@code @name}, {@code @`name`}, {@code @'name'}. */
    USER_VARIABLE,
    /** {@code @@name}, {@code @@session.name}, {@code @@global.name}. */
    SYSTEM_VARIABLE,
    /** {@code ?}. */
    PLACEHOLDER,
    LEFT_PAREN,
    RIGHT_PAREN,
    COMMA,
    DOT,
    SEMICOLON,
    /** {@code :=}. */
    ASSIGN,
    /** Any other punctuation: {@code =}, {@code <=>}, {@code ->>}, {@code *}, a stray {@code @}. */
    OPERATOR,
    /** The end of the text; returned again on every later call. */
    END
}
