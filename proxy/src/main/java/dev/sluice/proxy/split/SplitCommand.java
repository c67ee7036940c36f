package dev.sluice.proxy.split;

import io.netty.buffer.ByteBuf;

/**
 * One client command on its way in split mode: its frames, where it may run and what it needs
 * there, and the prepared statement it names (null for others).
 */
record SplitCommand(int code, ByteBuf frame, RoutedStatement route, ProxyStatement statement) {
}
