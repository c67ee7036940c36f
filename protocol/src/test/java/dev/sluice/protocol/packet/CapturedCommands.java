package dev.sluice.protocol.packet;

import dev.sluice.protocol.Commands;
import dev.sluice.protocol.testing.CapturedPacket;
import dev.sluice.protocol.testing.Captures;
import dev.sluice.protocol.testing.Direction;
import io.netty.buffer.Unpooled;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The command packets of a captured connection (client packets with sequence id 0, split packets
 * joined), with the num_params of every statement the connection prepared, taken from the server's
 * COM_STMT_PREPARE_OK: the first sequence-1 server packet after the prepare.
 */
final class CapturedCommands {

    private CapturedCommands() {
    }

    record Command(int frame, byte[] payload) {
    }

    static List<Command> commands(String file, int connection) {
        List<Command> commands = new ArrayList<>();
        ByteArrayOutputStream joined = null;
        int frame = 0;
        for (CapturedPacket p : Captures.packets(file, connection, Direction.CLIENT_TO_SERVER)) {
            if (joined == null) {
                if (p.seq() != 0) {
                    continue;
                }
                joined = new ByteArrayOutputStream();
                frame = p.frame();
            }
            joined.writeBytes(p.payload());
            if (p.payload().length < 0xFFFFFF) {
                commands.add(new Command(frame, joined.toByteArray()));
                joined = null;
            }
        }
        return commands;
    }

    static Map<Long, Integer> paramCounts(String file, int connection) {
        long caps = Negotiated.capabilities(file, connection);
        List<CapturedPacket> server = Captures.packets(file, connection, Direction.SERVER_TO_CLIENT);
        Map<Long, Integer> counts = new HashMap<>();
        for (Command c : commands(file, connection)) {
            if ((c.payload()[0] & 0xFF) != Commands.COM_STMT_PREPARE) {
                continue;
            }
            CapturedPacket ok = server.stream().filter(p -> p.frame() > c.frame() && p.seq() == 1).findFirst()
                    .orElseThrow();
            StmtPrepareOk prepared = StmtPrepareOk.decode(Unpooled.wrappedBuffer(ok.payload()), caps);
            counts.put(prepared.statementId(), prepared.numParams());
        }
        return counts;
    }
}
