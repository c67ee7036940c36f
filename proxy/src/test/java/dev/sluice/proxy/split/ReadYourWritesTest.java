package dev.sluice.proxy.split;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.BackendConfig;
import dev.sluice.config.HostPort;
import dev.sluice.config.RoutingConfig;
import dev.sluice.config.RoutingConfig.ReadYourWritesScope;
import dev.sluice.protocol.Capabilities;
import dev.sluice.protocol.packet.OkPacket;
import dev.sluice.protocol.packet.SessionStateChange;
import dev.sluice.proxy.backend.Backend;
import dev.sluice.proxy.backend.ServerFlavor;
import dev.sluice.proxy.backend.SessionVariables;
import dev.sluice.proxy.gtid.AcknowledgedWrites;
import io.netty.buffer.Unpooled;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * What the replica of a read waits for, from the session-state blocks of the writes' OK packets:
 * MySQL's GTIDs entry (session_track_gtids = OWN_GTID) and MariaDB's last_gtid.
 */
class ReadYourWritesTest {

    private static final String UUID = "3e11fa47-71ca-11e1-9e33-c80aa9429562";
    private static final long CAPS = Capabilities.CLIENT_PROTOCOL_41 | Capabilities.CLIENT_SESSION_TRACK;

    private final AcknowledgedWrites shared = new AcknowledgedWrites();
    private final Backend replica = new Backend(new BackendConfig("r", new HostPort("127.0.0.1", 3307),
            BackendConfig.Role.REPLICA, 1, 10));
    private final Backend other = new Backend(new BackendConfig("r2", new HostPort("127.0.0.1", 3308),
            BackendConfig.Role.REPLICA, 1, 10));

    /**
     * The OK of an autocommit INSERT on MySQL 8 with session_track_gtids = OWN_GTID, laid out as
     * page_protocol_basic_ok_packet's "Session State Information" says: the GTIDs entry's data is
     * an encoding specification byte (0: the set as text) and the set as a string&lt;lenenc&gt;.
     */
    static byte[] mySqlInsertOk(String sequence) {
        byte[] set = ("3E11FA47-71CA-11E1-9E33-C80AA9429562:" + sequence).getBytes(StandardCharsets.US_ASCII);
        ByteArrayOutputStream ok = new ByteArrayOutputStream();
        ok.write(0x00);                      // OK header
        ok.write(0x01);                      // affected rows: 1
        ok.write(0x00);                      // last insert id: 0
        ok.writeBytes(new byte[] {0x02, 0x40}); // status: AUTOCOMMIT | SESSION_STATE_CHANGED
        ok.writeBytes(new byte[] {0x00, 0x00}); // warnings: 0
        ok.write(0x00);                      // info: "" (string<lenenc>)
        ok.write(2 + 1 + 1 + set.length);    // session state info: its length, one entry
        ok.write(0x03);                      // SESSION_TRACK_GTIDS
        ok.write(1 + 1 + set.length);        //   entry data: its length
        ok.write(0x00);                      //   encoding specification 0: text
        ok.write(set.length);                //   the GTID set, string<lenenc>
        ok.writeBytes(set);
        return ok.toByteArray();
    }

    private static List<SessionStateChange> stateOf(byte[] okPayload) {
        return OkPacket.decode(Unpooled.wrappedBuffer(okPayload), CAPS).sessionStateChanges();
    }

    private ReadYourWrites readYourWrites(ReadYourWritesScope scope, String user) {
        RoutingConfig routing = new RoutingConfig(RoutingConfig.Mode.SPLIT, RoutingConfig.Balancer.ROUND_ROBIN,
                RoutingConfig.ReadYourWrites.GTID, RoutingConfig.DEFAULT_PRIMARY_WINDOW, Duration.ofMillis(1500),
                List.of(), scope, RoutingConfig.Discover.OFF, Optional.empty());
        return new ReadYourWrites(routing, shared, () -> user);
    }

    private static TrackedChanges apply(List<SessionStateChange> changes, ReadYourWrites readYourWrites) {
        return TrackedChanges.apply(changes, new SessionVariables(null), readYourWrites, false, false, false,
                java.util.Set.of(), List.of());
    }

    @Test
    void theGtidsEntryDecodesFromMySqlsBytes() {
        assertThat(stateOf(mySqlInsertOk("23")))
                .containsExactly(new SessionStateChange.Gtids(0, "3E11FA47-71CA-11E1-9E33-C80AA9429562:23"));
    }

    @Test
    void aSessionWaitsForEveryGtidItsWritesCommitted() {
        ReadYourWrites session = readYourWrites(ReadYourWritesScope.SESSION, "app");
        assertThat(session.mustWait(replica, ServerFlavor.MYSQL)).as("nothing written yet").isFalse();

        TrackedChanges first = apply(stateOf(mySqlInsertOk("23")), session);
        assertThat(first.gtidReported()).isTrue();
        assertThat(first.untracked()).as("a commit's GTIDs are no untracked state").isFalse();
        apply(stateOf(mySqlInsertOk("25")), session);

        assertThat(session.mustWait(replica, ServerFlavor.MYSQL)).isTrue();
        assertThat(session.waitStatement())
                .isEqualTo("SELECT WAIT_FOR_EXECUTED_GTID_SET('" + UUID + ":23:25', 1.5)");
        session.caughtUp(replica);
        assertThat(session.mustWait(replica, ServerFlavor.MYSQL)).as("once per replica and write").isFalse();
        assertThat(session.mustWait(other, ServerFlavor.MYSQL)).isTrue();

        apply(stateOf(mySqlInsertOk("24")), session);
        assertThat(session.mustWait(replica, ServerFlavor.MYSQL)).as("a new write").isTrue();
        assertThat(session.waitStatement()).isEqualTo("SELECT WAIT_FOR_EXECUTED_GTID_SET('" + UUID + ":23-25', 1.5)");
    }

    @Test
    void aUsersReadsWaitForWhatOtherConnectionsOfItsUserWrote() {
        ReadYourWrites writer = readYourWrites(ReadYourWritesScope.USER, "app");
        ReadYourWrites reader = readYourWrites(ReadYourWritesScope.USER, "app");
        ReadYourWrites stranger = readYourWrites(ReadYourWritesScope.USER, "report");
        apply(stateOf(mySqlInsertOk("7")), writer);
        apply(stateOf(mySqlInsertOk("9")), writer);

        assertThat(reader.mustWait(replica, ServerFlavor.MYSQL)).isTrue();
        assertThat(reader.waitStatement()).isEqualTo("SELECT WAIT_FOR_EXECUTED_GTID_SET('" + UUID + ":7:9', 1.5)");
        assertThat(stranger.mustWait(replica, ServerFlavor.MYSQL)).as("another user's writes").isFalse();
        reader.caughtUp(replica);
        assertThat(writer.mustWait(replica, ServerFlavor.MYSQL)).as("shared: known applied there").isFalse();
        assertThat(readYourWrites(ReadYourWritesScope.GLOBAL, "report").mustWait(other, ServerFlavor.MYSQL)).isTrue();
    }

    /** The MariaDB path as it was: the last write's GTID, MASTER_GTID_WAIT. */
    @Test
    void mariaDbWaitsForTheLastGtidReported() {
        ReadYourWrites session = readYourWrites(ReadYourWritesScope.SESSION, "app");
        apply(List.of(new SessionStateChange.SystemVariable("last_gtid", "0-1-41")), session);
        TrackedChanges last = apply(List.of(new SessionStateChange.SystemVariable("last_gtid", "0-1-42")), session);

        assertThat(last.gtidReported()).isTrue();
        assertThat(session.mustWait(replica, ServerFlavor.MARIADB)).isTrue();
        assertThat(session.waitStatement()).isEqualTo("SELECT MASTER_GTID_WAIT('0-1-42', 1.5)");
        assertThat(shared.position(ReadYourWritesScope.USER, "app").toString()).isEqualTo("0-1-42");

        ReadYourWrites user = readYourWrites(ReadYourWritesScope.USER, "app");
        assertThat(user.mustWait(replica, ServerFlavor.MARIADB)).isTrue();
        assertThat(user.waitStatement()).isEqualTo("SELECT MASTER_GTID_WAIT('0-1-42', 1.5)");
        assertThat(user.mustWait(replica, ServerFlavor.MYSQL)).as("no MySQL writes to wait for").isFalse();
    }
}
