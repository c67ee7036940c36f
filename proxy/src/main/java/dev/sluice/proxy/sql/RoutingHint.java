package dev.sluice.proxy.sql;

/**
 * A routing wish written in a comment: {@code sluice:primary} or {@code sluice:replica} as a
 * word of any comment (block comments, optimizer hint comments, {@code --} and {@code #} line
 * comments), case-insensitive. Executable comments are code, not hints. When both
 * appear, PRIMARY wins.
 */
public enum RoutingHint {
    NONE,
    PRIMARY,
    REPLICA
}
