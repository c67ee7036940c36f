package dev.sluice.proxy.command;

import dev.sluice.protocol.Commands;

/**
 * What a client command is to the proxy, the same in both session kinds: they differ only in how
 * a statement finds its backend, not in which commands the proxy answers, refuses or rewrites.
 */
public enum ClientCommand {
    /** The client is done: the session ends, its backend connection may serve another. */
    QUIT,
    /** Answered by the split session itself; session mode asks its backend. */
    PING,
    /** Replication and server-internal commands: the proxy cannot relay a binlog stream. */
    REFUSED,
    /** COM_QUERY and COM_STMT_PREPARE: SQL the proxy reads (CONNECTION_ID(), KILL, routing). */
    SQL,
    /** COM_STMT_EXECUTE, FETCH, SEND_LONG_DATA and RESET: they name a prepared statement. */
    PREPARED_STATEMENT,
    /** COM_STMT_CLOSE: no response. */
    STATEMENT_CLOSE,
    RESET_CONNECTION,
    CHANGE_USER,
    /** COM_SET_OPTION (multi-statements on or off): connection state no replay restores. */
    SET_OPTION,
    /** Anything else goes to the backend as it is. */
    OTHER;

    public static ClientCommand of(int code) {
        return switch (code) {
            case Commands.COM_QUIT -> QUIT;
            case Commands.COM_PING -> PING;
            case Commands.COM_BINLOG_DUMP, Commands.COM_BINLOG_DUMP_GTID, Commands.COM_REGISTER_SLAVE,
                 Commands.COM_TABLE_DUMP, Commands.COM_CONNECT_OUT, Commands.COM_DAEMON -> REFUSED;
            case Commands.COM_QUERY, Commands.COM_STMT_PREPARE -> SQL;
            case Commands.COM_STMT_EXECUTE, Commands.COM_STMT_FETCH, Commands.COM_STMT_SEND_LONG_DATA,
                 Commands.COM_STMT_RESET -> PREPARED_STATEMENT;
            case Commands.COM_STMT_CLOSE -> STATEMENT_CLOSE;
            case Commands.COM_RESET_CONNECTION -> RESET_CONNECTION;
            case Commands.COM_CHANGE_USER -> CHANGE_USER;
            case Commands.COM_SET_OPTION -> SET_OPTION;
            default -> OTHER;
        };
    }

    /** The ERR message a {@link #REFUSED} command gets (code {@link Replies#UNKNOWN_COMMAND}, SQLSTATE 08S01). */
    public static String refusal(int code) {
        return "Sluice does not relay " + Commands.name(code) + " (replication needs a direct connection)";
    }

    /** The ERR message of an empty command packet, which ends the session. */
    public static final String EMPTY = "Malformed packet: empty command";

    /** The ERR message of a command longer than {@code maxPacketSize}, which ends the session. */
    public static String tooLarge(long maxPacketSize) {
        return "Got a packet bigger than 'max_allowed_packet' bytes (" + maxPacketSize + ")";
    }
}
