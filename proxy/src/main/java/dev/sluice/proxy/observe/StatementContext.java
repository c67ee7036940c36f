package dev.sluice.proxy.observe;

import dev.sluice.protocol.Commands;
import dev.sluice.protocol.checksum.AnswerChecksum;
import dev.sluice.protocol.frame.Packet;
import dev.sluice.protocol.frame.RawPacketDecoder;
import dev.sluice.proxy.sql.Classification;
import dev.sluice.proxy.sql.Digest;
import dev.sluice.proxy.sql.SqlCharsets;
import dev.sluice.proxy.sql.SqlMode;
import dev.sluice.proxy.sql.SqlReaders;
import dev.sluice.proxy.sql.StatementClassifier;
import io.netty.buffer.ByteBuf;
import java.nio.charset.Charset;
import java.util.Objects;

/**
 * One client command on its way to a backend, as routing, stats and capture all see it, built
 * once for the command: its frame; for SQL (COM_QUERY, COM_STMT_PREPARE) the character set its
 * bytes are in and the sql_mode flags that move where strings and identifiers end, as the session
 * had them when the command arrived, its classification (split mode) and its digest, computed
 * from these on first use and kept, so that routing rules, stats and capture all get the one
 * digest of the statement and none of them pays for it when nothing asks; and what stats and
 * capture keep of it until its response ends ({@link Tally}, {@link Copy}).
 *
 * <p>The frame is the command's until it is sent: valid while the command is routed and handed
 * to the observers ({@link StatementObserver#onCommand}), never after; what is needed later is
 * copied out. A session reuses a context once its command's response has ended. Used on the
 * session's event loop only.
 */
public final class StatementContext {

    /** What the statistics keep of a statement until its response: where its figures are added. */
    public interface Tally {
    }

    /** What capture keeps of a statement until its response: the copy it writes out then. */
    public interface Copy {
    }

    /**
     * What mirroring keeps of a statement until its response: the copy it sends to the shadow then,
     * and the checksum the response's packets feed on their way to the client.
     */
    public interface Mirrored {
        AnswerChecksum answer();
    }

    private final SqlReaders readers;
    private final Charset loginCharset;
    private int command;
    private ByteBuf frame;
    private Charset charset;
    private SqlMode sqlMode = SqlMode.DEFAULT;
    /** The variable values {@link #charset} and {@link #sqlMode} were read from: read again only when they change. */
    private String characterSetClient;
    private String sqlModeVariable;
    private Classification classification;
    private boolean digested;
    private long digest;
    private String digestText;
    /** Where {@link #locate} found the SQL bytes. */
    private byte[] array;
    private int start;
    private Tally tally;
    private Copy copy;
    private Mirrored mirrored;

    /**
     * @param loginCollation the collation id of the handshake response (or of the proxy's own
     *                       login): what the text is in until the session sets character_set_client
     */
    public StatementContext(SqlReaders readers, int loginCollation) {
        this.readers = readers;
        this.loginCharset = SqlCharsets.forCollation(loginCollation);
        this.charset = loginCharset;
    }

    /**
     * The command in {@code frame} (4-byte header, the command byte, then its argument), in a
     * session whose variables are tracked. Either value may be null when not known: the login's
     * character set and the server's default sql_mode stand in.
     */
    public StatementContext reset(ByteBuf frame, String characterSetClient, String sqlModeVariable) {
        if (!Objects.equals(characterSetClient, this.characterSetClient)) {
            this.characterSetClient = characterSetClient;
            charset = characterSetClient == null ? loginCharset : SqlCharsets.forName(characterSetClient);
        }
        if (!Objects.equals(sqlModeVariable, this.sqlModeVariable)) {
            this.sqlModeVariable = sqlModeVariable;
            sqlMode = SqlMode.fromSqlModeVariable(sqlModeVariable);
        }
        return reset(frame);
    }

    /** The command in {@code frame}, read with the character set and sql_mode this context last had. */
    public StatementContext reset(ByteBuf frame) {
        this.frame = frame;
        command = frame.getUnsignedByte(frame.readerIndex() + Packet.HEADER_SIZE);
        classification = null;
        digested = false;
        digestText = null;
        tally = null;
        copy = null;
        mirrored = null;
        return this;
    }

    /** The command byte (COM_QUERY, COM_STMT_EXECUTE...). */
    public int command() {
        return command;
    }

    /**
     * The command's frame, header included: read it, never retain or release it; valid while the
     * command is routed and observed only.
     */
    public ByteBuf frame() {
        return frame;
    }

    /** A COM_QUERY or COM_STMT_PREPARE: SQL text, with a digest. */
    public boolean hasSql() {
        return command == Commands.COM_QUERY || command == Commands.COM_STMT_PREPARE;
    }

    public Charset charset() {
        return charset;
    }

    public SqlMode sqlMode() {
        return sqlMode;
    }

    /** This thread's classifier, to classify the statement with. */
    public StatementClassifier classifier() {
        return readers.classifier();
    }

    /** What the classifier found (split mode, which routes by it); null when it was not asked. */
    public Classification classification() {
        return classification;
    }

    public void classification(Classification found) {
        this.classification = found;
    }

    /** The command carries no SQL at all. */
    public boolean isEmpty() {
        return RawPacketDecoder.payloadLength(frame) <= 1;
    }

    /** Whether {@link #digest} was computed for this command already (asking then costs nothing). */
    public boolean digested() {
        return digested;
    }

    /** The digest's 64-bit hash ({@link Digest#fingerprint}), computed on first use. */
    public long digest() {
        if (!digested) {
            int length = locate();
            digest = readers.digest().fingerprint(array, start, length, charset, sqlMode);
            array = null;
            digested = true;
        }
        return digest;
    }

    /** The digest's normalized text ({@link Digest#normalize}), computed on first use. */
    public String digestText() {
        if (digestText == null) {
            int length = locate();
            digestText = readers.digest().normalize(array, start, length, charset, sqlMode);
            array = null;
        }
        return digestText;
    }

    /** What the statistics add this statement's figures to, once its response ends (null: nothing). */
    public Tally tally() {
        return tally;
    }

    public void tally(Tally figures) {
        this.tally = figures;
    }

    /** What capture writes of this statement once its response ends (null: nothing). */
    public Copy copy() {
        return copy;
    }

    public void copy(Copy kept) {
        this.copy = kept;
    }

    /** What mirroring sends to the shadow once the response ends (null: nothing). */
    public Mirrored mirrored() {
        return mirrored;
    }

    public void mirrored(Mirrored kept) {
        this.mirrored = kept;
    }

    /** The checksum the response's packets feed while relayed, or null: only mirrored statements have one. */
    public AnswerChecksum answer() {
        return mirrored == null ? null : mirrored.answer();
    }

    /** Finds the SQL bytes (the first ones the digest reads) in place or copied; returns how many. */
    private int locate() {
        int length = Math.max(0, Math.min(Digest.MAX_INPUT_BYTES, RawPacketDecoder.payloadLength(frame) - 1));
        int offset = frame.readerIndex() + Packet.HEADER_SIZE + 1;
        if (frame.hasArray()) {
            array = frame.array();
            start = frame.arrayOffset() + offset;
        } else {
            array = readers.scratch(length);
            frame.getBytes(offset, array, 0, length);
            start = 0;
        }
        return length;
    }
}
