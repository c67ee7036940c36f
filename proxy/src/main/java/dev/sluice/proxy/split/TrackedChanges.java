package dev.sluice.proxy.split;

import dev.sluice.protocol.packet.SessionStateChange;
import dev.sluice.proxy.backend.SessionVariables;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;

/**
 * What one OK's session-state block says, applied to the session's own state: variables and
 * schema to replay elsewhere, the GTIDs of its writes.
 *
 * @param untracked         state changed that no variable or schema entry explains (user
 *                          variables set in a procedure, say): the session must stay where it is.
 *                          The server sets the state-change flag for all changes at once, so the
 *                          entries explain it only for a statement whose text names every change
 *                          (SET, USE): a procedure that sets @tenant and sql_mode reports sql_mode
 *                          alone, and @tenant would stay behind on a shared connection
 * @param collationUnknown  the character set changed without collation_connection being reported
 *                          (MariaDB does not report it for SET NAMES): it must be read back
 * @param gtidReported      the write's GTIDs came with it: last_gtid (MariaDB) or a GTIDs entry (MySQL)
 * @param schemaReported    the current schema changed: null if not, else the new one ("" for none,
 *                          after DROP DATABASE of it)
 *
 * <p>A prepared statement runs in the schema it was prepared in: the server switches to it and
 * back, and reports the session's own schema, with the state-change flag, after every execution
 * in another schema. Such a report ({@code executesPrepared}, the schema restated, nothing else
 * but the GTID) explains the flag; a CALL's execution is not let off, its procedure may set what
 * nothing reports.
 *
 * <p>A SET STATEMENT ... FOR puts its variables back after its own report, so the server reports
 * them again, at their value, in the next OK on that connection, with the state-change flag.
 * Those entries ({@code restored}, unless the statement's own SET names them) give the value the
 * connection has again (which the session had, unless a multi-statement set it beside the SET
 * STATEMENT: such a session stays on its connection) and explain the flag; an INSERT's trigger
 * setting a user variable in the same statement would go unseen, the price of not tying every
 * session that scopes a variable to its connection.
 */
record TrackedChanges(boolean untracked, boolean collationUnknown, boolean gtidReported, String schemaReported) {

    static TrackedChanges apply(List<SessionStateChange> changes, SessionVariables desired, ReadYourWrites readYourWrites,
                                boolean effectsInText, boolean variablesScoped, boolean executesPrepared,
                                Set<String> restored, List<String> setInText) {
        String schemaBefore = desired.schema();
        // A schema entry that names the schema the session had, and any other variable or schema entry.
        boolean schemaRestated = false;
        boolean somethingNew = false;
        boolean explained = false;
        boolean restoreSeen = false;
        boolean stateChange = false;
        boolean charsetChanged = false;
        boolean collationReported = false;
        boolean gtid = false;
        String schemaReported = null;
        for (SessionStateChange change : changes) {
            switch (change) {
                case SessionStateChange.SystemVariable variable -> {
                    String name = variable.name();
                    if (name.equalsIgnoreCase("last_gtid")) {
                        readYourWrites.gtid(variable.value());
                        gtid = true;
                    } else {
                        String lower = name.toLowerCase(Locale.ROOT);
                        if (restored.contains(lower) && !setInText.contains(lower)) {
                            restoreSeen = true;
                        } else {
                            somethingNew = true;
                        }
                        if (!variablesScoped) {
                            charsetChanged |= name.equalsIgnoreCase("character_set_connection");
                            collationReported |= name.equalsIgnoreCase("collation_connection");
                            desired.set(name, variable.value());
                        }
                    }
                    explained = true;
                }
                case SessionStateChange.Schema schema -> {
                    if (Objects.equals(schema.name(), schemaBefore)) {
                        schemaRestated = true;
                    } else {
                        somethingNew = true;
                    }
                    desired.schema(schema.name());
                    schemaReported = schema.name() == null ? "" : schema.name();
                    explained = true;
                }
                case SessionStateChange.Gtids gtids -> {
                    // Encoding 0 is the only one MySQL defines: the set as text.
                    if (gtids.encoding() == 0) {
                        readYourWrites.gtidSet(gtids.gtids());
                        gtid = true;
                    }
                }
                case SessionStateChange.StateChange ignored -> stateChange = true;
                default -> {
                }
            }
        }
        boolean restatedByExecution = executesPrepared && schemaRestated && !somethingNew;
        boolean onlyRestores = restoreSeen && !somethingNew && !schemaRestated;
        return new TrackedChanges(stateChange && !(explained && effectsInText) && !restatedByExecution && !onlyRestores,
                charsetChanged && !collationReported, gtid, schemaReported);
    }
}
