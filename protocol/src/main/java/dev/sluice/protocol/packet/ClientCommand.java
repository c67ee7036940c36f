package dev.sluice.protocol.packet;

import dev.sluice.protocol.Commands;
import dev.sluice.protocol.ProtocolException;
import io.netty.buffer.ByteBuf;
import java.util.function.LongToIntFunction;

/**
 * A command-phase packet (https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_command_phase.html):
 * its first byte is the {@link Commands} value.
 */
public sealed interface ClientCommand extends ClientPacket permits ComQuery, ComInitDb, ComPing, ComQuit,
        ComFieldList, ComStatistics, ComSetOption, ComChangeUser, ComResetConnection, ComStmtPrepare,
        ComStmtExecute, ComStmtSendLongData, ComStmtClose, ComStmtReset, ComStmtFetch {

    /** The command byte. */
    int command();

    /**
     * Decodes any command this package has a record for, by its first byte.
     *
     * @param paramCountOf the num_params from COM_STMT_PREPARE_OK for a statement id, needed to
     *        read COM_STMT_EXECUTE; -1 for an id the caller does not know
     */
    static ClientCommand decode(ByteBuf payload, long capabilities, LongToIntFunction paramCountOf) {
        if (!payload.isReadable()) {
            throw new ProtocolException("command: empty payload (expected: a command byte)");
        }
        int command = payload.getUnsignedByte(payload.readerIndex());
        return switch (command) {
            case Commands.COM_QUERY -> ComQuery.decode(payload, capabilities);
            case Commands.COM_INIT_DB -> ComInitDb.decode(payload);
            case Commands.COM_PING -> ComPing.decode(payload);
            case Commands.COM_QUIT -> ComQuit.decode(payload);
            case Commands.COM_FIELD_LIST -> ComFieldList.decode(payload);
            case Commands.COM_STATISTICS -> ComStatistics.decode(payload);
            case Commands.COM_SET_OPTION -> ComSetOption.decode(payload);
            case Commands.COM_CHANGE_USER -> ComChangeUser.decode(payload, capabilities);
            case Commands.COM_RESET_CONNECTION -> ComResetConnection.decode(payload);
            case Commands.COM_STMT_PREPARE -> ComStmtPrepare.decode(payload);
            case Commands.COM_STMT_EXECUTE -> {
                if (payload.readableBytes() < 5) {
                    throw new ProtocolException("ComStmtExecute: payload length " + payload.readableBytes()
                            + " (expected: >= 10)");
                }
                long statementId = payload.getUnsignedIntLE(payload.readerIndex() + 1);
                int params = paramCountOf.applyAsInt(statementId);
                if (params < 0) {
                    throw new ProtocolException("ComStmtExecute.statement_id: " + statementId
                            + " (expected: a prepared statement's id)");
                }
                yield ComStmtExecute.decode(payload, capabilities, params);
            }
            case Commands.COM_STMT_SEND_LONG_DATA -> ComStmtSendLongData.decode(payload);
            case Commands.COM_STMT_CLOSE -> ComStmtClose.decode(payload);
            case Commands.COM_STMT_RESET -> ComStmtReset.decode(payload);
            case Commands.COM_STMT_FETCH -> ComStmtFetch.decode(payload);
            default -> throw new ProtocolException("command: " + Commands.name(command)
                    + " (expected: one of the commands with a record in dev.sluice.protocol.packet)");
        };
    }
}
