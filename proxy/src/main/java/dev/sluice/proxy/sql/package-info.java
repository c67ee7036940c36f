/**
 * A small SQL front-end for the proxy: it reads MySQL/MariaDB statements without executing or
 * fully parsing them, in time linear in the text and without allocating on the common path.
 *
 * <ul>
 * <li>{@link dev.sluice.proxy.sql.StatementClassifier} → {@link dev.sluice.proxy.sql.Classification}:
 *     kind, read-only for routing, comment hint, {@link dev.sluice.proxy.sql.SessionEffect}s, SET
 *     assignments, USE schema, transaction effect.</li>
 * <li>{@link dev.sluice.proxy.sql.Digest}: normalized text and a 64-bit fingerprint for stats,
 *     capture and routing rules, computed once per statement by
 *     the observe package's StatementContext (which this package does not depend on).</li>
 * <li>{@link dev.sluice.proxy.sql.Redactor}: passwords masked before capture.</li>
 * </ul>
 *
 * <p>Rules chosen where MySQL and MariaDB leave room, always towards the primary when in doubt:
 * <ul>
 * <li>Executable comments ({@code /*!}, {@code /*!NNNNN}, {@code /*M!}) are code whatever their
 *     version; a version-gated one is also read as a comment, and the text is read-only only if
 *     both readings are. Likewise a backslash inside quotes is read with and without
 *     NO_BACKSLASH_ESCAPES, in case the proxy's idea of the sql_mode lags behind the server's.</li>
 * <li>A call of a function that is not a known built-in (a stored function) is not read-only
 *     and is an {@code OPAQUE_PROGRAM} effect: stored functions may write.</li>
 * <li>Not read-only although they only read: IS_FREE_LOCK, IS_USED_LOCK, LOAD_FILE,
 *     MASTER_POS_WAIT / SOURCE_POS_WAIT / MASTER_GTID_WAIT / WAIT_FOR_EXECUTED_GTID_SET
 *     (their answer depends on the server), SETVAL and NEXTVAL (write), and anything that reads
 *     connection state: user variables, FOUND_ROWS(), LAST_INSERT_ID(), ROW_COUNT(),
 *     CONNECTION_ID(), LASTVAL(), SHOW WARNINGS/ERRORS/PROFILE(S), @@warning_count,
 *     @@error_count. SLEEP, BENCHMARK, RAND, UUID, NOW and the other pure built-ins are
 *     fine.</li>
 * <li>DESCRIBE of a table and EXPLAIN [ANALYZE] of a read-only SELECT are read-only; EXPLAIN of
 *     anything else, and EXPLAIN FOR CONNECTION, are not. DO is never read-only.</li>
 * <li>A read-only SELECT never contains INSERT, UPDATE, DELETE, REPLACE, CREATE, DROP, ALTER,
 *     TRUNCATE, RENAME, GRANT, REVOKE, LOAD, CALL, LOCK, UNLOCK, SET, INTO, OUTFILE, DUMPFILE,
 *     PROCEDURE, PURGE, KILL, OPTIMIZE, CHANGE or RELEASE outside quotes and comments, except as
 *     a name after a dot, as the functions INSERT(), REPLACE(), TRUNCATE(), and SET in
 *     CHARACTER SET; one such word anywhere makes it not read-only, whatever it means there.</li>
 * <li>Statements that define or run stored code (CREATE PROCEDURE/FUNCTION/TRIGGER/EVENT/PACKAGE,
 *     ALTER EVENT, BEGIN NOT ATOMIC, MariaDB's IF/CASE/LOOP/REPEAT/WHILE/labels) keep every
 *     semicolon after them as their own: the rest of the text is one statement, and every user
 *     variable in it counts as read and written.</li>
 * <li>Hints: {@code sluice:primary} / {@code sluice:replica} as a word in any comment (block,
 *     optimizer hint, {@code --}, {@code #}); PRIMARY wins when both appear. Executable comments
 *     are code, so a hint there is not a hint. A hint never changes {@code readOnly()}.</li>
 * <li>Digests drop all comments, hints included, and upper-case reserved words always, other
 *     keywords only where they act as keywords (not {@code FROM status} or {@code id, name}).</li>
 * </ul>
 */
package dev.sluice.proxy.sql;
