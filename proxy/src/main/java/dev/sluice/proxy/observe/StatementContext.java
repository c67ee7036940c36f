package dev.sluice.proxy.observe;

import dev.sluice.protocol.frame.Packet;
import dev.sluice.protocol.frame.RawPacketDecoder;
import dev.sluice.proxy.sql.Digest;
import dev.sluice.proxy.sql.SqlCharsets;
import dev.sluice.proxy.sql.SqlMode;
import io.netty.buffer.ByteBuf;
import io.netty.util.concurrent.FastThreadLocal;
import java.nio.charset.Charset;
import java.util.Objects;

/**
 * The SQL of one COM_QUERY or COM_STMT_PREPARE with what lexing it depends on: the character set
 * its bytes are in and the sql_mode flags that move where strings and identifiers end, as the
 * session had them when the command arrived. Its digest is computed from these on first use and
 * kept, so routing rules, stats and capture all get the one digest of the statement, and none of
 * them pays for it when nothing asks.
 *
 * <p>One per session, reset for each such command: it reads the command's frame, so it is valid
 * while the command is routed and handed to the observers ({@link StatementObserver#onCommand}).
 * What is needed later is copied out (the digest's value, the charset, the sql_mode), never this.
 * Used on the session's event loop only.
 */
public final class StatementContext {

    private static final FastThreadLocal<Digest> DIGEST = new FastThreadLocal<>() {
        @Override
        protected Digest initialValue() {
            return new Digest();
        }
    };
    /** Where the SQL of a frame that is not one array is copied to be digested, per event loop. */
    private static final FastThreadLocal<byte[]> SCRATCH = new FastThreadLocal<>() {
        @Override
        protected byte[] initialValue() {
            return new byte[4096];
        }
    };

    private final Charset loginCharset;
    private ByteBuf frame;
    private Charset charset;
    private SqlMode sqlMode = SqlMode.DEFAULT;
    /** The variable values {@link #charset} and {@link #sqlMode} were read from: read again only when they change. */
    private String characterSetClient;
    private String sqlModeVariable;
    private boolean digested;
    private long digest;
    private String digestText;
    /** Where {@link #locate} found the SQL bytes. */
    private byte[] array;
    private int start;

    /**
     * @param loginCollation the collation id of the handshake response (or of the proxy's own
     *                       login): what the text is in until the session sets character_set_client
     */
    public StatementContext(int loginCollation) {
        this.loginCharset = SqlCharsets.forCollation(loginCollation);
        this.charset = loginCharset;
    }

    /**
     * The command in {@code frame} (4-byte header, the command byte, the SQL), in a session whose
     * variables are tracked. Either value may be null when not known: the login's character set
     * and the server's default sql_mode stand in.
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
        digested = false;
        digestText = null;
        return this;
    }

    public Charset charset() {
        return charset;
    }

    public SqlMode sqlMode() {
        return sqlMode;
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
            digest = DIGEST.get().fingerprint(array, start, length, charset, sqlMode);
            array = null;
            digested = true;
        }
        return digest;
    }

    /** The digest's normalized text ({@link Digest#normalize}), computed on first use. */
    public String digestText() {
        if (digestText == null) {
            int length = locate();
            digestText = DIGEST.get().normalize(array, start, length, charset, sqlMode);
            array = null;
        }
        return digestText;
    }

    /** Finds the SQL bytes (the first ones the digest reads) in place or copied; returns how many. */
    private int locate() {
        int length = Math.max(0, Math.min(Digest.MAX_INPUT_BYTES, RawPacketDecoder.payloadLength(frame) - 1));
        int offset = frame.readerIndex() + Packet.HEADER_SIZE + 1;
        if (frame.hasArray()) {
            array = frame.array();
            start = frame.arrayOffset() + offset;
        } else {
            byte[] scratch = SCRATCH.get();
            if (scratch.length < length) {
                scratch = new byte[Math.max(length, scratch.length * 2)];
                SCRATCH.set(scratch);
            }
            frame.getBytes(offset, scratch, 0, length);
            array = scratch;
            start = 0;
        }
        return length;
    }
}
