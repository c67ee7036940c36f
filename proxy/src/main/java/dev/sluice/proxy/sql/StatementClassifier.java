package dev.sluice.proxy.sql;

import java.nio.charset.Charset;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Classifies the SQL text of a COM_QUERY (or COM_STMT_PREPARE) for routing: its kind, whether it
 * provably only reads, the hint in its comments, the session state it creates or needs, its SET
 * assignments, USE schema and transaction effect. It never executes or fully parses SQL; it
 * reads tokens once, in time linear in the text, and throws nothing for any input.
 *
 * <p>Where the session's sql_mode could change where a string ends (a backslash inside quotes)
 * or a version-gated comment is code for one server and a comment for another, the text is also
 * read the other way, and it is read-only only if every reading says so; the session effects
 * of all readings are reported.
 *
 * <p>Not thread-safe: it reuses its buffers, so keep one per thread (event loop). Results of
 * statements without effects, assignments or schema are shared instances: classifying a typical
 * OLTP statement allocates nothing.
 */
public final class StatementClassifier {
    private static final StatementKind[] KINDS = StatementKind.values();
    private static final TransactionEffect[] EFFECTS = TransactionEffect.values();
    private static final RoutingHint[] HINTS = RoutingHint.values();
    private static final SessionEffect[] SESSION_EFFECTS = SessionEffect.values();
    /** Results without effects, assignments or schema, each built once per classifier (per event loop). */
    private final Classification[] shared = new Classification[KINDS.length * 2 * HINTS.length * EFFECTS.length * 2 * 2];

    private final TokenStream stream = new TokenStream();
    private final StatementAnalyzer analyzer = new StatementAnalyzer();
    private final ByteSqlText bytes = new ByteSqlText();
    /** While reading the text another way: an unterminated literal there is a parse error, not a risk. */
    private boolean alternative;

    /** Classifies {@code sql} as a server with the default sql_mode reads it. */
    public Classification classify(CharSequence sql) {
        return classify(sql, SqlMode.DEFAULT);
    }

    /**
     * Classifies {@code sql} as a session with {@code mode} reads it.
     *
     * @throws NullPointerException when {@code sql} or {@code mode} is null
     */
    public Classification classify(CharSequence sql, SqlMode mode) {
        Objects.requireNonNull(sql, "sql");
        Objects.requireNonNull(mode, "mode");
        Classification first = run(sql, mode.noBackslashEscapes(), mode.ansiQuotes(), true);
        boolean backslash = stream.backslashInQuote();
        boolean versioned = stream.versionedComment();
        if (!backslash && !versioned) {
            return first;
        }
        boolean readOnly = first.readOnly();
        boolean noWrites = first.noWrites();
        Set<SessionEffect> effects = first.sessionEffects().isEmpty()
                ? EnumSet.noneOf(SessionEffect.class) : EnumSet.copyOf(first.sessionEffects());
        alternative = true;
        try {
            for (int variant = 1; variant < 4; variant++) {
                boolean flipEscapes = (variant & 1) != 0;
                boolean versionedAsComment = (variant & 2) != 0;
                if ((flipEscapes && !backslash) || (versionedAsComment && !versioned)) {
                    continue;
                }
                Classification other = run(sql, mode.noBackslashEscapes() ^ flipEscapes, mode.ansiQuotes(),
                        !versionedAsComment);
                readOnly &= other.readOnly();
                noWrites &= other.noWrites();
                effects.addAll(other.sessionEffects());
            }
        } finally {
            alternative = false;
        }
        if (readOnly == first.readOnly() && noWrites == first.noWrites() && effects.equals(first.sessionEffects())) {
            return first;
        }
        return first.withReadOnlyAndEffects(readOnly, noWrites, effects);
    }

    /**
     * Classifies text given as bytes. For UTF-8, ASCII and the single-byte charsets the bytes are
     * read in place; other charsets (whose multi-byte characters may contain quote or backslash
     * bytes) are decoded first. The result holds no reference to the array.
     *
     * @throws IndexOutOfBoundsException when {@code offset} and {@code length} are not within the array
     * @throws NullPointerException when an argument is null
     */
    public Classification classify(byte[] sql, int offset, int length, Charset charset, SqlMode mode) {
        Objects.checkFromIndexSize(offset, length, sql.length);
        if (!ByteSqlText.readableInPlace(charset)) {
            return classify(new String(sql, offset, length, charset), mode);
        }
        try {
            return classify(bytes.reset(sql, offset, length, charset), mode);
        } finally {
            bytes.clear();
        }
    }

    private Classification run(CharSequence sql, boolean noBackslashEscapes, boolean ansiQuotes,
            boolean versionedAsCode) {
        stream.reset(sql, noBackslashEscapes, ansiQuotes, versionedAsCode);
        List<Classification> parts = null;
        while (true) {
            analyzer.begin(stream);
            while (stream.type(0) != TokenType.END
                    && (stream.type(0) != TokenType.SEMICOLON || analyzer.compound())) {
                analyzer.accept();
                stream.advance();
            }
            analyzer.finish();
            while (stream.type(0) == TokenType.SEMICOLON) {
                stream.advance();
            }
            boolean last = stream.type(0) == TokenType.END;
            if (!analyzer.isEmpty()) {
                if (parts == null && last) {
                    return build(stream.hint(), stream.unterminated());
                }
                if (parts == null) {
                    parts = new ArrayList<>();
                }
                parts.add(build(RoutingHint.NONE, last && stream.unterminated()));
            }
            if (last) {
                break;
            }
        }
        RoutingHint hint = stream.hint();
        if (parts == null) {
            return shared(StatementKind.EMPTY, false, hint, TransactionEffect.NONE, false, false, 0);
        }
        return multi(parts, hint);
    }

    private Classification build(RoutingHint hint, boolean incomplete) {
        StatementAnalyzer a = analyzer;
        boolean readOnly = (!incomplete || alternative) && a.readOnly();
        boolean noWrites = (!incomplete || alternative) && a.noWrites();
        long effects = a.features.effects();
        List<SetAssignment> assignments = a.set.assignments();
        boolean tableFree = a.tableFree();
        if (effects == 0 && assignments.isEmpty() && a.useSchema == null && a.scopedVariables == null) {
            return shared(a.kind, readOnly, hint, a.transaction, a.snapshot, tableFree, 1);
        }
        return new Classification(a.kind, readOnly, noWrites, hint, effectSet(effects), assignments, a.useSchema,
                a.transaction, a.snapshot, a.scopedVariables, tableFree, 1, List.of());
    }

    private static Classification multi(List<Classification> parts, RoutingHint hint) {
        EnumSet<SessionEffect> effects = EnumSet.noneOf(SessionEffect.class);
        List<SetAssignment> assignments = new ArrayList<>();
        List<Classification> withHint = new ArrayList<>(parts.size());
        String schema = null;
        TransactionEffect transaction = TransactionEffect.NONE;
        boolean snapshot = false;
        List<String> scopedVariables = null;
        for (Classification part : parts) {
            if (part.setStatementFor()) {
                scopedVariables = scopedVariables == null ? new ArrayList<>() : scopedVariables;
                scopedVariables.addAll(part.scopedVariables());
            }
            withHint.add(part.withHint(hint));
            effects.addAll(part.sessionEffects());
            assignments.addAll(part.setAssignments());
            schema = part.useSchema() != null ? part.useSchema() : schema;
            transaction = part.transactionEffect() != TransactionEffect.NONE ? part.transactionEffect() : transaction;
            snapshot |= part.consistentSnapshot();
        }
        return new Classification(StatementKind.MULTI, false, false, hint, effects, assignments, schema, transaction,
                snapshot, scopedVariables, false, parts.size(), withHint);
    }

    private static Set<SessionEffect> effectSet(long mask) {
        EnumSet<SessionEffect> set = EnumSet.noneOf(SessionEffect.class);
        for (SessionEffect e : SESSION_EFFECTS) {
            if ((mask & (1L << e.ordinal())) != 0) {
                set.add(e);
            }
        }
        return set;
    }

    /** Results without effects, assignments or schema are few; each is built once. */
    private Classification shared(StatementKind kind, boolean readOnly, RoutingHint hint,
            TransactionEffect transaction, boolean snapshot, boolean tableFree, int count) {
        int index = ((((kind.ordinal() * 2 + (readOnly ? 1 : 0)) * HINTS.length + hint.ordinal()) * EFFECTS.length
                + transaction.ordinal()) * 2 + (snapshot ? 1 : 0)) * 2 + (tableFree ? 1 : 0);
        Classification c = shared[index];
        if (c == null) {
            c = new Classification(kind, readOnly, readOnly, hint, Set.of(), List.of(), null, transaction, snapshot, null,
                    tableFree, count, List.of());
            shared[index] = c;
        }
        return c;
    }
}
