package dev.sluice.proxy.capture;

import dev.sluice.protocol.packet.ParameterType;
import dev.sluice.proxy.observe.StatementContext;
import java.net.SocketAddress;
import java.util.List;

/**
 * One statement on its way to the file: what the event loop copied when the command went out and
 * when its response ended. Everything costly (text decoding, redaction, digests, parameter
 * values, formatting) is left to the writer thread. Filled on one event loop, then handed over
 * through the writer's queue, which publishes it.
 */
final class CapturedStatement implements StatementContext.Copy {

    final int command;
    final long sessionId;
    final String user;
    final SocketAddress client;
    final String schema;
    /** The statement text (a prepared statement's for COM_STMT_*, the schema for COM_INIT_DB), or null. */
    final byte[] text;
    /** The command was longer than capture keeps: the text (or the parameters) are cut. */
    final boolean truncated;
    /** How {@link #text} is read and digested when it is a statement's; null otherwise. */
    final DigestSource source;
    /** A prepared statement's id (for COM_STMT_PREPARE once the response gave it), else -1. */
    long statementId;
    final int paramCount;
    /** COM_STMT_EXECUTE: the payload from the command byte on, to decode the values from; else null. */
    final byte[] payload;
    /** COM_STMT_EXECUTE: the parameter types in effect (sent now or by an earlier execute), or null. */
    final List<ParameterType> types;
    /** COM_STMT_EXECUTE: some values came in COM_STMT_SEND_LONG_DATA, so the payload lacks them. */
    final boolean longData;
    /** The command's size as the client sent it, packet headers included. */
    final long bytesIn;
    /** False for a prepare followed only to know its text later (filtered out by schema). */
    final boolean keep;

    String backend;
    long startNanos;
    long latencyNanos;
    long rowsSent;
    long rowsAffected;
    /** The response's size as the backend sent it, packet headers included. */
    long bytesOut;
    int errorCode;
    /** On the first line a session has written: how to open it again; null on the others. */
    SessionState sessionState;

    CapturedStatement(int command, long sessionId, String user, SocketAddress client, String schema, byte[] text,
                      boolean truncated, DigestSource source, long statementId, int paramCount, byte[] payload,
                      List<ParameterType> types, boolean longData, long bytesIn, boolean keep) {
        this.command = command;
        this.sessionId = sessionId;
        this.user = user;
        this.client = client;
        this.schema = schema;
        this.text = text;
        this.truncated = truncated;
        this.source = source;
        this.statementId = statementId;
        this.paramCount = paramCount;
        this.payload = payload;
        this.types = types;
        this.longData = longData;
        this.bytesIn = bytesIn;
        this.keep = keep;
    }
}
