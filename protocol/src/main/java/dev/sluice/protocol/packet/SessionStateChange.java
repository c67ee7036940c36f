package dev.sluice.protocol.packet;

import dev.sluice.protocol.ProtocolException;
import dev.sluice.protocol.Wire;
import io.netty.buffer.ByteBuf;

/**
 * One entry of an OK packet's session state information
 * (https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_basic_ok_packet.html, "Session
 * State Information"): a type byte and a string&lt;lenenc&gt; of data whose layout depends on the
 * type. Unknown types keep their data raw, so every entry re-encodes byte for byte.
 */
public sealed interface SessionStateChange {

    int SYSTEM_VARIABLES = 0;
    int SCHEMA = 1;
    int STATE_CHANGE = 2;
    int GTIDS = 3;
    int TRANSACTION_CHARACTERISTICS = 4;
    int TRANSACTION_STATE = 5;

    /** The SESSION_TRACK_* type byte. */
    int type();

    /** Length of the entry's data (without the type byte and the data's own length prefix). */
    int dataLength();

    void writeData(ByteBuf out);

    /** A tracked system variable changed: name and new value (e.g. autocommit, OFF). */
    record SystemVariable(String name, String value) implements SessionStateChange {
        @Override
        public int type() {
            return SYSTEM_VARIABLES;
        }

        @Override
        public int dataLength() {
            return Strings.lenencSize(Strings.utf8(name)) + Strings.lenencSize(Strings.utf8(value));
        }

        @Override
        public void writeData(ByteBuf out) {
            Wire.writeStringLenenc(out, name);
            Wire.writeStringLenenc(out, value);
        }
    }

    /** The default schema changed (empty when there is none). */
    record Schema(String name) implements SessionStateChange {
        @Override
        public int type() {
            return SCHEMA;
        }

        @Override
        public int dataLength() {
            return Strings.lenencSize(Strings.utf8(name));
        }

        @Override
        public void writeData(ByteBuf out) {
            Wire.writeStringLenenc(out, name);
        }
    }

    /**
     * Session state changed in a way the other types do not describe; the server sends "1". MySQL
     * sends it as a string&lt;lenenc&gt;; MariaDB sends the bare character (the entry's length is
     * 1): {@code prefixed} keeps which, so the entry re-encodes byte for byte.
     */
    record StateChange(String tracked, boolean prefixed) implements SessionStateChange {

        /** MySQL's layout. */
        public StateChange(String tracked) {
            this(tracked, true);
        }

        @Override
        public int type() {
            return STATE_CHANGE;
        }

        @Override
        public int dataLength() {
            return prefixed ? Strings.lenencSize(Strings.utf8(tracked)) : Strings.utf8(tracked).length;
        }

        @Override
        public void writeData(ByteBuf out) {
            if (prefixed) {
                Wire.writeStringLenenc(out, tracked);
            } else {
                out.writeBytes(Strings.utf8(tracked));
            }
        }
    }

    /** GTIDs of the last transaction; {@code encoding} is the specification byte (0: text). */
    record Gtids(int encoding, String gtids) implements SessionStateChange {
        @Override
        public int type() {
            return GTIDS;
        }

        @Override
        public int dataLength() {
            return 1 + Strings.lenencSize(Strings.utf8(gtids));
        }

        @Override
        public void writeData(ByteBuf out) {
            out.writeByte(encoding);
            Wire.writeStringLenenc(out, gtids);
        }
    }

    /** SQL that would recreate the transaction's characteristics, e.g. "SET TRANSACTION READ ONLY;". */
    record TransactionCharacteristics(String statements) implements SessionStateChange {
        @Override
        public int type() {
            return TRANSACTION_CHARACTERISTICS;
        }

        @Override
        public int dataLength() {
            return Strings.lenencSize(Strings.utf8(statements));
        }

        @Override
        public void writeData(ByteBuf out) {
            Wire.writeStringLenenc(out, statements);
        }
    }

    /** The 8-character transaction state, e.g. "T_______" (explicit transaction, nothing done yet). */
    record TransactionState(String state) implements SessionStateChange {
        @Override
        public int type() {
            return TRANSACTION_STATE;
        }

        @Override
        public int dataLength() {
            return Strings.lenencSize(Strings.utf8(state));
        }

        @Override
        public void writeData(ByteBuf out) {
            Wire.writeStringLenenc(out, state);
        }
    }

    /** A type this code does not know, data as sent. */
    record Unknown(int type, byte[] data) implements SessionStateChange {
        @Override
        public int dataLength() {
            return data.length;
        }

        @Override
        public void writeData(ByteBuf out) {
            out.writeBytes(data);
        }
    }

    /** Decodes one entry's data (already cut to its length) for {@code type}; all of it must be used. */
    static SessionStateChange decode(int type, ByteBuf data) {
        String where = "OkPacket.session_state_info type " + type;
        SessionStateChange change = switch (type) {
            case SYSTEM_VARIABLES -> new SystemVariable(Fields.stringLenenc(data, where + " name"),
                    Fields.stringLenenc(data, where + " value"));
            case SCHEMA -> new Schema(Fields.stringLenenc(data, where));
            case STATE_CHANGE -> data.readableBytes() == 1
                    ? new StateChange(Fields.stringEof(data), false)
                    : new StateChange(Fields.stringLenenc(data, where));
            case GTIDS -> new Gtids(Fields.int1(data, where + " encoding"), Fields.stringLenenc(data, where));
            case TRANSACTION_CHARACTERISTICS -> new TransactionCharacteristics(Fields.stringLenenc(data, where));
            case TRANSACTION_STATE -> new TransactionState(Fields.stringLenenc(data, where));
            default -> new Unknown(type, Fields.bytesEof(data));
        };
        if (data.isReadable()) {
            throw new ProtocolException(where + ": " + data.readableBytes()
                    + " bytes after the entry's value (expected: end of entry)");
        }
        return change;
    }
}
