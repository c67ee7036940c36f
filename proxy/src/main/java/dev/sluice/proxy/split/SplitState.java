package dev.sluice.proxy.split;

import dev.sluice.config.RoutingConfig;
import dev.sluice.protocol.Commands;
import dev.sluice.protocol.auth.Credential;
import dev.sluice.proxy.backend.LoginRequest;
import dev.sluice.proxy.backend.OwnCommands;
import dev.sluice.proxy.backend.SessionVariables;
import dev.sluice.proxy.backend.TrackedConnection;
import dev.sluice.proxy.gtid.AcknowledgedWrites;
import dev.sluice.proxy.memory.MemoryBudget;
import dev.sluice.proxy.stats.ProxyStats;
import dev.sluice.proxy.observe.StatementContext;
import dev.sluice.proxy.sql.SqlReaders;
import io.netty.buffer.ByteBuf;
import java.util.function.Consumer;

/**
 * What a split session knows of itself between statements, shared by the session
 * ({@link SplitPath}) and the finding of each statement's connection ({@link ConnectionFinder}):
 * how it logged in, the state its statements expect wherever they run, its prepared statements,
 * the connection it holds and why, and what its last statements left behind.
 */
final class SplitState {

    final SessionVariables desired;
    final SplitStatements statements = new SplitStatements();
    final Binding binding;
    final ReadYourWrites readYourWrites;
    final LastInsertId lastInsertId = new LastInsertId();
    final CarriedError carriedError = new CarriedError();
    final ReplicaTransaction replicaTransaction = new ReplicaTransaction();
    final ReadBacks readBacks;
    /** The open transaction's statements, kept to run them again if its connection is lost. */
    final TransactionLog transactionLog;
    /**
     * The command being routed or sent (one at a time), its SQL read with the charset and
     * sql_mode {@link #desired} has (the login's charset until the first connection reports one).
     */
    final StatementContext sql;
    private LoginRequest login;
    /** What the session asks its pools for: the login without a schema. */
    private LoginRequest poolLogin;
    /** The first connection told what the login left the session at. */
    boolean stateInitialised;
    /** What the login left the session's variables at (the first connection's), once known. */
    SessionVariables loginValues;
    /** The binding's hold count when the last statement was sent: equal while its connection is still held. */
    long previousStatementHold = -1;
    /**
     * The held connection's diagnostics area is not the session's: it was taken from the pool and
     * only statements that name no table and raised nothing ran on it since. A statement that
     * reads it has it cleared first.
     */
    boolean foreignDiagnostics;
    /** The next first connection's character set variables go to the server's globals. */
    private boolean charsetsAtGlobals;

    SplitState(LoginRequest login, String schema, RoutingConfig routing, AcknowledgedWrites acknowledgedWrites,
               SqlReaders readers, Consumer<PinReason> onPinned, MemoryBudget bufferedMemory, ProxyStats stats) {
        this.login = login;
        this.desired = new SessionVariables(schema);
        this.sql = new StatementContext(readers, login.charset());
        this.binding = new Binding(onPinned);
        this.readYourWrites = new ReadYourWrites(routing, acknowledgedWrites, () -> this.login.user());
        this.readBacks = new ReadBacks(desired, readYourWrites);
        this.transactionLog = new TransactionLog(routing.transactionReplay(), routing.transactionReplayMaxSize(),
                bufferedMemory, stats);
    }

    LoginRequest login() {
        return login;
    }

    /** The login without a schema: a replica may not have it yet; ConnectionSetup selects it, or reroutes. */
    LoginRequest poolLogin() {
        if (poolLogin == null) {
            poolLogin = login.withSchema(null);
        }
        return poolLogin;
    }

    /** The session's SQL text context for {@code frame}: its character set and sql_mode. */
    StatementContext sqlOf(ByteBuf frame) {
        return sql.reset(frame, desired.variable("character_set_client"), desired.variable("sql_mode"));
    }

    Boolean autocommit() {
        String value = desired.variable("autocommit");
        return value == null ? null : !value.equalsIgnoreCase("OFF") && !value.equals("0");
    }

    /**
     * The first connection tells what the login left the session at; after a COM_CHANGE_USER the
     * server refused, the character set variables are the server's globals instead.
     */
    void initialiseFrom(SessionVariables values) {
        loginValues = values;
        desired.adoptLoginValues(values);
        if (charsetsAtGlobals) {
            desired.characterSetsToGlobalValues();
            charsetsAtGlobals = false;
        }
        stateInitialised = true;
    }

    /**
     * The session starts over as {@code user}, as after a login with {@code schema} and
     * {@code charset}; {@code refused}: a refused COM_CHANGE_USER, after which the character set
     * variables are the server's global values (the server resets the session before it checks
     * the account, and restores the values it read after that reset). A session whose schema was
     * dropped keeps its connection without one, which no other can give it, reset as the server
     * resets the session. {@code then} runs once that is done.
     */
    void startOver(String user, Credential credential, String schema, int charset, boolean refused, Runnable then) {
        this.charsetsAtGlobals = refused;
        TrackedConnection kept = refused && schema == null ? binding.keepWithoutSchema() : null;
        if (kept == null) {
            binding.releaseForGood();
        }
        transactionLog.clear();
        statements.closeAll();
        desired.reset(schema);
        lastInsertId.reset();
        carriedError.reset();
        stateInitialised = false;
        // Nothing the last statement left survives; a kept connection is set up in full.
        previousStatementHold = -1;
        login = login.as(user, credential, charset, schema);
        poolLogin = null;
        if (kept == null) {
            then.run();
            return;
        }
        kept.sendOwn(OwnCommands.resetConnection(kept.channel().alloc()), Commands.COM_RESET_CONNECTION, reset -> {
            if (reset.isError()) {
                binding.releaseForGood();
                then.run();
            } else {
                kept.afterReset(restored -> then.run());
            }
        });
    }
}
