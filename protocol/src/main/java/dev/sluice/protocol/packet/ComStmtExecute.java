package dev.sluice.protocol.packet;

import dev.sluice.protocol.Capabilities;
import dev.sluice.protocol.Commands;
import dev.sluice.protocol.Wire;
import io.netty.buffer.ByteBuf;
import java.util.OptionalLong;

/**
 * COM_STMT_EXECUTE (https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_com_stmt_execute.html).
 * Its layout depends on the statement's num_params from COM_STMT_PREPARE_OK, which the packet does
 * not repeat, so the decoder takes it. With CLIENT_QUERY_ATTRIBUTES a parameter_count (which may
 * exceed num_params: the rest are query attributes) precedes the block, and each type carries a name.
 *
 * @param statementId unsigned 32-bit; MariaDB also accepts 0xFFFFFFFF for "the statement just prepared"
 * @param flags cursor type ({@link #CURSOR_TYPE_READ_ONLY} etc.), plus {@link #PARAMETER_COUNT_AVAILABLE}
 * @param parameterCount present only when sent (CLIENT_QUERY_ATTRIBUTES)
 * @param parameters null when the statement has no parameters
 */
public record ComStmtExecute(
        long statementId,
        int flags,
        long iterationCount,
        OptionalLong parameterCount,
        BoundParameters parameters) implements ClientCommand {

    public static final int CURSOR_TYPE_NO_CURSOR = 0;
    public static final int CURSOR_TYPE_READ_ONLY = 1;
    public static final int CURSOR_TYPE_FOR_UPDATE = 2;
    public static final int CURSOR_TYPE_SCROLLABLE = 4;
    public static final int PARAMETER_COUNT_AVAILABLE = 8;

    /**
     * @param numParams num_params of the statement's COM_STMT_PREPARE_OK
     */
    public static ComStmtExecute decode(ByteBuf payload, long capabilities, int numParams) {
        Fields.header(payload, Commands.COM_STMT_EXECUTE, "ComStmtExecute");
        long statementId = Fields.int4(payload, "ComStmtExecute.statement_id");
        int flags = Fields.int1(payload, "ComStmtExecute.flags");
        long iterations = Fields.int4(payload, "ComStmtExecute.iteration_count");
        boolean attributes = Capabilities.has(capabilities, Capabilities.CLIENT_QUERY_ATTRIBUTES);
        OptionalLong parameterCount = OptionalLong.empty();
        BoundParameters parameters = null;
        if (numParams > 0 || (attributes && (flags & PARAMETER_COUNT_AVAILABLE) != 0)) {
            long count = numParams;
            if (attributes) {
                count = Fields.intLenenc(payload, "ComStmtExecute.parameter_count");
                parameterCount = OptionalLong.of(count);
            }
            if (count > 0) {
                parameters = BoundParameters.read(payload, count, attributes, true, "ComStmtExecute");
            }
        }
        Fields.end(payload, "ComStmtExecute");
        return new ComStmtExecute(statementId, flags, iterations, parameterCount, parameters);
    }

    @Override
    public int command() {
        return Commands.COM_STMT_EXECUTE;
    }

    @Override
    public void encode(ByteBuf out) {
        out.writeByte(Commands.COM_STMT_EXECUTE);
        out.writeIntLE((int) statementId);
        out.writeByte(flags);
        out.writeIntLE((int) iterationCount);
        if (parameterCount.isPresent()) {
            Wire.writeIntLenenc(out, parameterCount.getAsLong());
        }
        if (parameters != null) {
            parameters.write(out);
        }
    }

    /** The cursor type without the PARAMETER_COUNT_AVAILABLE bit. */
    public int cursorType() {
        return flags & ~PARAMETER_COUNT_AVAILABLE;
    }
}
