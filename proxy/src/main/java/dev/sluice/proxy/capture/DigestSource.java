package dev.sluice.proxy.capture;

import dev.sluice.proxy.observe.StatementContext;
import dev.sluice.proxy.sql.SqlMode;
import java.nio.charset.Charset;

/**
 * What a captured statement's text is read with, taken from its {@link StatementContext} when the
 * command went out: the session's character set and sql_mode, and the digest when the event loop
 * had computed it already (for stats or routing). The writer computes a digest not given from the
 * same bytes with the same charset and sql_mode, so it is the one stats and routing rules show.
 *
 * @param digested whether {@code digest} holds the digest's hash
 */
record DigestSource(Charset charset, SqlMode sqlMode, boolean digested, long digest) {

    static DigestSource of(StatementContext sql) {
        boolean digested = sql.digested();
        return new DigestSource(sql.charset(), sql.sqlMode(), digested, digested ? sql.digest() : 0);
    }
}
