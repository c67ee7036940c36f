package dev.sluice.proxy.split;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.BackendConfig;
import dev.sluice.config.CaptureConfig;
import dev.sluice.config.HostPort;
import dev.sluice.config.RoutingRule;
import dev.sluice.protocol.Commands;
import dev.sluice.protocol.response.Response;
import dev.sluice.proxy.backend.Backend;
import dev.sluice.proxy.backend.SessionVariables;
import dev.sluice.proxy.capture.CaptureControl;
import dev.sluice.proxy.observe.SessionInfo;
import dev.sluice.proxy.observe.StatementContext;
import dev.sluice.proxy.sql.SqlReaders;
import dev.sluice.proxy.observe.StatementObserver;
import dev.sluice.proxy.sql.Digest;
import dev.sluice.proxy.stats.DigestStats;
import dev.sluice.proxy.stats.DigestTable;
import dev.sluice.proxy.stats.StatsObserver;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A statement has one digest: the one a routing rule's {@code digest:} matches is the one the
 * stats table shows and the one capture writes, read with the session's character set and
 * sql_mode. The statements are those where reading them as UTF-8 with the default sql_mode (as
 * stats did) or from text decoded by guesswork (as capture did) gives another digest.
 */
class OneDigestTest {

    private static final SqlReaders READERS = new SqlReaders();

    private static final Pattern DIGEST = Pattern.compile("\"digest\":\"([0-9A-F]{16})\",\"digest_text\":\"([^\"]*)\"");
    private static final Response ROWS =
            new Response(Response.Kind.RESULT_SET, 2, 0, null, null, 1, 1, 1, 0, 0, 0, -1, 0, false, false, 100);
    private static final Backend PRIMARY = new Backend(new BackendConfig("primary",
            new HostPort("127.0.0.1", 3306), BackendConfig.Role.PRIMARY, 1, 10));

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0} ({1}, {2})")
    @CsvSource(delimiter = '~', quoteCharacter = '`', nullValues = "-", value = {
        // latin1 bytes: as UTF-8 the ï is not a character, and the identifier would lose it.
        "SELECT naïve, 'é' FROM t WHERE id = 1~latin1~-~SELECT naïve, ? FROM t WHERE id = ?",
        "SELECT \"a\", b FROM t WHERE c = 'x'~-~ANSI_QUOTES~SELECT a, b FROM t WHERE c = ?",
        "SELECT \"a\", b FROM t WHERE c = 'x'~-~ANSI~SELECT a, b FROM t WHERE c = ?",
        "SELECT a FROM t WHERE b = 'c:\\' OR d = 'e'~-~NO_BACKSLASH_ESCAPES~SELECT a FROM t WHERE b = ? OR d = ?",
        "SELECT \"café\", naïve FROM t WHERE note = 'x\\' OR id = 1~latin1~STRICT_TRANS_TABLES,ANSI_QUOTES,NO_BACKSLASH_ESCAPES"
                + "~SELECT café, naïve FROM t WHERE note = ? OR id = ?",
        "SELECT 'ok' FROM t~utf8mb4~-~SELECT ? FROM t"})
    void routingStatsAndCaptureAgree(String sql, String characterSetClient, String sqlMode, String expected)
            throws Exception {
        byte[] bytes = sql.getBytes(javaCharset(characterSetClient));
        String hex = Digest.hex(Digest.hash(expected));
        SessionVariables variables = new SessionVariables(null);
        if (characterSetClient != null) {
            variables.set("character_set_client", characterSetClient);
        }
        if (sqlMode != null) {
            variables.set("sql_mode", sqlMode);
        }
        List<RoutingRule> rule = List.of(new RoutingRule(null, hex, RoutingRule.Route.PRIMARY));

        // A read goes to a replica, unless a rule with its digest says otherwise.
        StatementContext unruled = new StatementContext(READERS, 45);
        assertThat(SqlRouting.forQuery(query(bytes), variables, List.of(), unruled).target()).isEqualTo(Target.REPLICA);
        assertThat(unruled.digested()).as("no rule asked: no digest computed").isFalse();

        // As a split session does it: routing, then every observer, with one context.
        Observers observers = new Observers(dir.resolve("capture.jsonl"));
        TestSession session = new TestSession(1);
        StatementContext context = new StatementContext(READERS, 45);
        ByteBuf frame = query(bytes);
        assertThat(SqlRouting.forQuery(frame, variables, rule, context).target()).isEqualTo(Target.PRIMARY);
        observers.run(session, Commands.COM_QUERY, frame, context);
        // A session whose statement nothing digested on the way: capture's writer computes it.
        TestSession captureOnly = new TestSession(2);
        ByteBuf again = query(bytes);
        StatementContext fresh = new StatementContext(READERS, 45).reset(again, characterSetClient, sqlMode);
        observers.capture().onCommand(captureOnly, fresh);
        observers.capture().onResponse(captureOnly, fresh, PRIMARY, ROWS, 1000);
        assertThat(fresh.digested()).isFalse();

        DigestStats shown = observers.stats.digests().snapshot().getFirst();
        assertThat(observers.stats.digests().snapshot()).hasSize(1);
        assertThat(Digest.hex(shown.fingerprint())).isEqualTo(hex);
        assertThat(shown.text()).isEqualTo(expected);
        assertThat(observers.captured()).containsExactly(hex + " " + expected, hex + " " + expected);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '~', quoteCharacter = '`', value = {
        "SELECT \"a\" FROM t WHERE b = ?~SELECT a FROM t WHERE b = ?",
        "SELECT naïve FROM t WHERE b = ?~SELECT naïve FROM t WHERE b = ?"})
    void executesHaveTheDigestOfTheirPrepare(String sql, String expected) throws Exception {
        String hex = Digest.hex(Digest.hash(expected));
        Observers observers = new Observers(dir.resolve("prepared.jsonl"));
        TestSession session = new TestSession(1);
        StatementContext context = new StatementContext(READERS, 45);
        ByteBuf prepare = frame(Commands.COM_STMT_PREPARE, sql.getBytes(javaCharset("latin1")));
        Response prepared = new Response(Response.Kind.PREPARE_OK, -1, 0, null, null, 0, 1, 0, 0, 0, 0, 7, 1,
                false, false, 100);
        observers.run(session, Commands.COM_STMT_PREPARE, prepare,
                context.reset(prepare, "latin1", "ANSI_QUOTES"), prepared);
        ByteBuf execute = frame(Commands.COM_STMT_EXECUTE, new byte[] {7, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 8, 0,
            1, 0, 0, 0, 0, 0, 0, 0});
        observers.run(session, Commands.COM_STMT_EXECUTE, execute, context.reset(execute), ROWS);

        DigestStats shown = observers.stats.digests().snapshot().getFirst();
        assertThat(Digest.hex(shown.fingerprint())).isEqualTo(hex);
        assertThat(shown.count()).as("the execute counted under its prepare's digest").isEqualTo(1);
        assertThat(observers.captured()).containsExactly(hex + " " + expected, hex + " " + expected);
    }

    @ParameterizedTest(name = "collation {0}")
    @CsvSource({"8, SELECT naïve FROM t", "45, SELECT na\uFFFDve FROM t"})
    void sessionModeReadsTheTextInTheHandshakesCharacterSet(int collation, String expected) throws Exception {
        Observers observers = new Observers(dir.resolve("session.jsonl"));
        ByteBuf frame = query("SELECT naïve FROM t".getBytes(javaCharset("latin1")));
        // What session mode (RelayPath) does: no variables tracked, the handshake's collation.
        observers.run(new TestSession(1), Commands.COM_QUERY, frame, new StatementContext(READERS, collation).reset(frame));

        String hex = Digest.hex(Digest.hash(expected));
        assertThat(observers.stats.digests().snapshot().getFirst().text()).isEqualTo(expected);
        assertThat(observers.captured()).containsExactly(hex + " " + expected);
    }

    private static Charset javaCharset(String mysqlName) {
        return "latin1".equals(mysqlName) ? Charset.forName("windows-1252") : StandardCharsets.UTF_8;
    }

    private static ByteBuf query(byte[] sql) {
        return frame(Commands.COM_QUERY, sql);
    }

    private static ByteBuf frame(int command, byte[] argument) {
        ByteBuf frame = Unpooled.buffer(5 + argument.length);
        frame.writeMediumLE(1 + argument.length).writeByte(0).writeByte(command).writeBytes(argument);
        return frame;
    }

    /** Stats and capture as the proxy runs them: stats first, capture registered after. */
    private static final class Observers {
        final StatsObserver stats = new StatsObserver(new DigestTable(100, true));
        final List<StatementObserver> registered = new CopyOnWriteArrayList<>();
        final CaptureControl control = new CaptureControl(registered::add, registered::remove);
        final Path file;

        Observers(Path file) {
            this.file = file;
            control.enable(CaptureConfig.jsonl(file));
        }

        StatementObserver capture() {
            return registered.getFirst();
        }

        void run(SessionInfo session, int command, ByteBuf frame, StatementContext sql) {
            run(session, command, frame, sql, ROWS);
        }

        void run(SessionInfo session, int command, ByteBuf frame, StatementContext sql, Response response) {
            stats.onCommand(session, sql);
            capture().onCommand(session, sql);
            stats.onResponse(session, sql, PRIMARY, response, 1000);
            capture().onResponse(session, sql, PRIMARY, response, 1000);
        }

        /** Stops capture and returns "digest digest_text" of each line written. */
        List<String> captured() throws Exception {
            control.disable();
            return Files.readAllLines(file).stream().map(line -> {
                Matcher m = DIGEST.matcher(line);
                assertThat(m.find()).as(line).isTrue();
                return m.group(1) + " " + m.group(2);
            }).toList();
        }
    }

    private record TestSession(long sessionId, Map<Object, Object> attributes) implements SessionInfo {
        TestSession(long sessionId) {
            this(sessionId, new HashMap<>());
        }

        @Override
        public String user() {
            return "app";
        }

        @Override
        public SocketAddress clientAddress() {
            return new InetSocketAddress("127.0.0.1", 40000);
        }

        @Override
        public String schema() {
            return null;
        }

        @Override
        public Set<String> pins() {
            return Set.of();
        }

        @Override
        public String backendName() {
            return "primary";
        }
    }
}
