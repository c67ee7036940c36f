package dev.sluice.proxy.capture;

import dev.sluice.config.CaptureConfig;
import dev.sluice.protocol.Commands;
import dev.sluice.proxy.sql.Digest;
import dev.sluice.proxy.sql.Redactor;
import java.nio.charset.StandardCharsets;
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

    private final CaptureConfig.SqlText kept;
    private final Digest digest = new Digest();
    private final ParameterValues parameters = new ParameterValues();
    private final Map<Long, String> normalized = new LinkedHashMap<>(1024, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, String> eldest) {
            return size() > DIGEST_CACHE;
        }
    };

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

    StatementRenderer(CaptureConfig.SqlText kept) {
        this.kept = kept;
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
        String text = decode(statement.text);
        long hash = digest.fingerprint(text);
        digestHex = String.format("%016X", hash);
        if (kept != CaptureConfig.SqlText.NONE) {
            digestText = normalized.computeIfAbsent(hash, h -> digest.normalize(text));
        }
        boolean secret = mayHoldSecret(text);
        String redacted = secret ? Redactor.redact(text) : text;
        if (kept == CaptureConfig.SqlText.FULL) {
            sql = redacted;
            expanded = redacted;
        } else {
            expanded = digestText;
        }
        if (statement.command == Commands.COM_STMT_EXECUTE) {
            values = parameters.decode(statement);
            if (values.values() != null && kept == CaptureConfig.SqlText.FULL) {
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

    /**
     * UTF-8 as most clients send; text that is not UTF-8 (a latin1 connection) is read as Latin-1
     * rather than garbled. A trailing NUL some clients send inside the packet is not part of it.
     */
    private String decode(byte[] bytes) {
        int length = bytes.length;
        while (length > 0 && bytes[length - 1] == 0) {
            length--;
        }
        byte[] text = length == bytes.length ? bytes : java.util.Arrays.copyOf(bytes, length);
        String utf8 = parameters.text(text);
        return utf8 != null ? utf8 : new String(text, StandardCharsets.ISO_8859_1);
    }

    /** Every secret the Redactor finds follows PASSWORD or IDENTIFIED, so text without both words skips it. */
    static boolean mayHoldSecret(String text) {
        int n = text.length();
        for (int i = 0; i + 8 <= n; i++) {
            char c = text.charAt(i);
            if ((c == 'p' || c == 'P') && text.regionMatches(true, i, "password", 0, 8)
                    || (c == 'i' || c == 'I') && i + 10 <= n && text.regionMatches(true, i, "identified", 0, 10)) {
                return true;
            }
        }
        return false;
    }
}
