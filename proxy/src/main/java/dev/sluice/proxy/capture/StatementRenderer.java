package dev.sluice.proxy.capture;

import dev.sluice.config.CaptureConfig;
import dev.sluice.protocol.Commands;
import dev.sluice.proxy.sql.Digest;
import dev.sluice.proxy.sql.Redactor;
import dev.sluice.proxy.sql.SqlMode;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a captured statement becomes on its way to the file, worked out once on the writer thread
 * for whichever format writes it: its text (secrets redacted), its digest, and for executes the
 * parameter values and the text with the values in place. One instance per writer, reused for
 * every statement (fields hold the last statement's results).
 */
final class StatementRenderer {

    private static final int DIGEST_CACHE = 10_000;
    private static final int PREPARED_CACHE = 4_096;
    /** Longer texts are worked out again for each execute rather than kept. */
    private static final int PREPARED_TEXT_CACHED = 16 * 1024;

    private final CaptureConfig.SqlText kept;
    private final Digest digest = new Digest();
    private final ParameterValues parameters = new ParameterValues();
    private final Map<Long, String> normalized = new LinkedHashMap<>(1024, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, String> eldest) {
            return size() > DIGEST_CACHE;
        }
    };
    /** Prepared statements' texts by their (shared) array; emptied when full, as statements come and go. */
    private final Map<byte[], StatementText> prepared = new IdentityHashMap<>();
    private final boolean wantsExpanded;

    /** The statement text as it may be written (redacted), or null when none is kept or known. */
    String sql;
    /** The digest as 16 hex digits, or null for commands without a statement. */
    String digestHex;
    /** The normalized statement, or null (no statement, or {@code sql: none}). */
    String digestText;
    /** An execute's values; null otherwise. */
    ParameterValues.Decoded values;
    /** An execute's text with its values in place (redacted), else the statement's text; may be null. */
    String expanded;
    /** The COM_INIT_DB schema. */
    String schemaArgument;

    /** @param wantsExpanded whether {@link #expanded} is used (the slow log shows executes with their values) */
    StatementRenderer(CaptureConfig.SqlText kept, boolean wantsExpanded) {
        this.kept = kept;
        this.wantsExpanded = wantsExpanded;
    }

    ParameterValues parameters() {
        return parameters;
    }

    void render(CapturedStatement statement) {
        sql = null;
        digestHex = null;
        digestText = null;
        values = null;
        expanded = null;
        schemaArgument = null;
        if (statement.command == Commands.COM_INIT_DB && statement.text != null) {
            schemaArgument = decode(statement.text);
            return;
        }
        if (statement.text == null || !CommandNames.isStatement(statement.command)) {
            if (statement.command == Commands.COM_STMT_EXECUTE) {
                values = parameters.decode(statement);
            }
            return;
        }
        StatementText rendered = statement.command == Commands.COM_QUERY ? text(statement.text, statement.source)
                : preparedText(statement.text, statement.source);
        String text = rendered.text();
        boolean secret = rendered.secret();
        digestHex = rendered.digestHex();
        if (kept != CaptureConfig.SqlText.NONE) {
            digestText = rendered.digestText();
        }
        if (kept == CaptureConfig.SqlText.FULL) {
            sql = rendered.redacted();
            expanded = rendered.redacted();
        } else {
            expanded = digestText;
        }
        if (statement.command == Commands.COM_STMT_EXECUTE) {
            values = parameters.decode(statement);
            if (values.values() != null && kept == CaptureConfig.SqlText.FULL && (wantsExpanded || secret)) {
                String filled = Placeholders.expand(text, statement.paramCount,
                        (out, i) -> parameters.appendSql(out, values.values().get(i), values.types().get(i)));
                if (secret && (filled == null || !Redactor.redact(filled).equals(filled))) {
                    // A password went in as a parameter (or its place could not be checked): no value is kept.
                    values = new ParameterValues.Decoded(null, null, "redacted: the statement carries a password");
                    filled = null;
                }
                if (filled != null) {
                    expanded = filled;
                }
            }
        }
    }

    /** A prepared statement's text is one array with one source for all its executes: worked out once. */
    private StatementText preparedText(byte[] bytes, DigestSource source) {
        if (bytes.length > PREPARED_TEXT_CACHED) {
            return text(bytes, source);
        }
        StatementText known = prepared.get(bytes);
        if (known == null) {
            if (prepared.size() >= PREPARED_CACHE) {
                prepared.clear();
            }
            known = text(bytes, source);
            prepared.put(bytes, known);
        }
        return known;
    }

    /**
     * The digest is the one the event loop computed for stats or routing, or else computed here from
     * the same bytes with the same charset and sql_mode (the same function, so the same digest).
     */
    private StatementText text(byte[] bytes, DigestSource source) {
        Charset charset = source.charset();
        SqlMode mode = source.sqlMode();
        String text = decode(bytes, charset);
        long hash = source.digested() ? source.digest() : digest.fingerprint(bytes, 0, bytes.length, charset, mode);
        String normalizedText = kept == CaptureConfig.SqlText.NONE ? null
                : normalized.computeIfAbsent(hash, h -> digest.normalize(bytes, 0, bytes.length, charset, mode));
        boolean secret = Redactor.mentionsSecret(text);
        return new StatementText(text, secret ? Redactor.redact(text) : text, StatementText.hex(hash), normalizedText,
                secret);
    }

    /** The COM_INIT_DB argument: UTF-8, or Latin-1 when it is not. */
    private String decode(byte[] bytes) {
        return decode(bytes, StandardCharsets.ISO_8859_1);
    }

    /**
     * UTF-8 when the text is UTF-8, else {@code charset} (the session's). UTF-8 first because
     * session mode knows only the handshake's character set: a client that logged in as latin1
     * and then SET NAMES utf8mb4 still has its text shown as written. A trailing NUL some clients
     * send inside the packet is not part of the text.
     */
    private String decode(byte[] bytes, Charset charset) {
        int length = bytes.length;
        while (length > 0 && bytes[length - 1] == 0) {
            length--;
        }
        byte[] text = length == bytes.length ? bytes : java.util.Arrays.copyOf(bytes, length);
        String utf8 = parameters.text(text);
        if (utf8 != null) {
            return utf8;
        }
        return new String(text, charset.equals(StandardCharsets.UTF_8) ? StandardCharsets.ISO_8859_1 : charset);
    }
}
