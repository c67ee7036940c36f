package dev.sluice.proxy.split;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.BackendConfig;
import dev.sluice.config.HostPort;
import dev.sluice.protocol.Commands;
import dev.sluice.proxy.backend.Backend;
import dev.sluice.proxy.backend.BackendIdentity;
import dev.sluice.proxy.backend.SessionVariables;
import dev.sluice.proxy.backend.TrackedConnection;
import dev.sluice.proxy.memory.MemoryBudget;
import dev.sluice.proxy.sql.Classification;
import dev.sluice.proxy.sql.StatementClassifier;
import dev.sluice.proxy.stats.ProxyStats;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What a transaction records for transaction_replay: from the statement it begins at to its end,
 * each statement with its answer's checksum, within its size bound and the proxy's memory budget,
 * and why it cannot be replayed once it did what cannot run again the same way.
 */
class TransactionLogTest {

    private static final byte[] OK = {7, 0, 0, 1, 0x00, 0x01, 0x00, 0x03, 0x00, 0x00, 0x00};
    private final StatementClassifier classifier = new StatementClassifier();
    private final EmbeddedChannel channel = new EmbeddedChannel();
    private final TrackedConnection primary = connection(BackendConfig.Role.PRIMARY);
    private final SessionVariables desired = new SessionVariables("app");
    private final MemoryBudget budget = new MemoryBudget(1 << 20);

    @AfterEach
    void finish() {
        channel.finishAndReleaseAll();
    }

    @Test
    void anAutocommitStatementIsNotKept() {
        TransactionLog log = new TransactionLog(true, 1 << 20, budget, new ProxyStats());
        run(log, "UPDATE t SET v = 1", false, false);

        assertThat(log.entries()).isEmpty();
        assertThat(budget.held()).isZero();
        assertThat(log.lost()).isEqualTo("its start was not seen");
    }

    @Test
    void aTransactionIsKeptFromItsBeginToItsEnd() {
        TransactionLog log = new TransactionLog(true, 1 << 20, budget, new ProxyStats());
        desired.schema("shop");
        run(log, "BEGIN", false, true);
        desired.schema("other");
        run(log, "UPDATE t SET v = 1", true, true);

        assertThat(log.entries()).hasSize(2);
        assertThat(log.start().schema()).as("the state it began with").isEqualTo("shop");
        assertThat(budget.held()).isEqualTo(log.size()).isPositive();

        run(log, "COMMIT", true, false);
        assertThat(log.entries()).isEmpty();
        assertThat(budget.held()).isZero();
    }

    @Test
    void autocommitOffBeginsAtTheFirstStatement() {
        TransactionLog log = new TransactionLog(true, 1 << 20, budget, new ProxyStats());
        run(log, "SELECT 1", false, true, true);

        assertThat(log.entries()).hasSize(1);
        assertThat(log.lost()).isNull();
        assertThat(log.replayPending()).isTrue();
    }

    @Test
    void aCommitInFlightIsKnownAsOne() {
        TransactionLog log = new TransactionLog(true, 1 << 20, budget, new ProxyStats());
        run(log, "BEGIN", false, true);
        send(log, "COMMIT", true, false);

        assertThat(log.commitInFlight()).isTrue();
        assertThat(log.entries()).as("still the transaction's, until the COMMIT is answered").hasSize(1);
    }

    @Test
    void aTransactionPastItsSizeIsRefusedAndGivesItsMemoryBack() {
        TransactionLog log = new TransactionLog(true, 300, budget, new ProxyStats());
        run(log, "BEGIN", false, true);
        run(log, "UPDATE t SET v = '" + "x".repeat(300) + "'", true, true);

        assertThat(log.entries()).isEmpty();
        assertThat(budget.held()).isZero();
        assertThat(log.lost()).contains("transaction_replay_max_size (300 bytes)");
    }

    @Test
    void aFullMemoryBudgetRefusesTheTransaction() {
        MemoryBudget small = new MemoryBudget(120);
        TransactionLog log = new TransactionLog(true, 1 << 20, small, new ProxyStats());
        run(log, "BEGIN", false, true);
        run(log, "UPDATE t SET v = 1", true, true);

        assertThat(small.held()).isZero();
        assertThat(log.lost()).contains("limits.buffered_memory");
    }

    @Test
    void aWriteReadingItsConnectionsStateIsRefused() {
        TransactionLog log = new TransactionLog(true, 1 << 20, budget, new ProxyStats());
        run(log, "BEGIN", false, true);
        run(log, "INSERT INTO t VALUES (LAST_INSERT_ID())", true, true);

        assertThat(log.lost()).contains("read what its connection left");
    }

    @Test
    void aPreparedStatementIsRefused() {
        TransactionLog log = new TransactionLog(true, 1 << 20, budget, new ProxyStats());
        run(log, "BEGIN", false, true);
        ByteBuf execute = Unpooled.wrappedBuffer(new byte[] {10, 0, 0, 0, Commands.COM_STMT_EXECUTE, 1, 0, 0, 0, 0, 1,
                0, 0, 0});
        log.sent(new SplitCommand(Commands.COM_STMT_EXECUTE, execute, RoutedStatement.PRIMARY, null), primary, true,
                false, desired, null);
        execute.release();

        assertThat(log.lost()).contains("COM_STMT_EXECUTE");
    }

    @Test
    void offItKeepsNothing() {
        TransactionLog log = new TransactionLog(false, 1 << 20, budget, new ProxyStats());
        run(log, "BEGIN", false, true);

        assertThat(log.entries()).isEmpty();
        assertThat(log.lost()).isEqualTo("routing.transaction_replay is off");
    }

    // ---- helpers ----

    private void run(TransactionLog log, String sql, boolean inTransaction, boolean inTransactionAfter) {
        run(log, sql, inTransaction, inTransactionAfter, false);
    }

    private void run(TransactionLog log, String sql, boolean inTransaction, boolean inTransactionAfter,
                     boolean autocommitOff) {
        send(log, sql, inTransaction, autocommitOff);
        log.answerBytes(Unpooled.wrappedBuffer(OK));
        log.answered(inTransactionAfter);
    }

    private void send(TransactionLog log, String sql, boolean inTransaction, boolean autocommitOff) {
        Classification classification = classifier.classify(sql);
        byte[] text = sql.getBytes(StandardCharsets.UTF_8);
        ByteBuf frame = Unpooled.buffer().writeMediumLE(text.length + 1).writeByte(0).writeByte(Commands.COM_QUERY)
                .writeBytes(text);
        log.sent(new SplitCommand(Commands.COM_QUERY, frame, SqlRouting.route(classification), null), primary,
                inTransaction, autocommitOff, desired, classification);
        frame.release();
    }

    private TrackedConnection connection(BackendConfig.Role role) {
        Backend backend = new Backend(new BackendConfig("db", new HostPort("127.0.0.1", 3306), role, 1, 10));
        return new TrackedConnection(channel, backend, new BackendIdentity("app", 0, 45), "app");
    }
}
