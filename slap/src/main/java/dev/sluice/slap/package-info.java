/**
 * slap: a mysqlslap-compatible load client on mysql-connector-j and virtual threads.
 *
 * <p>Entry points: {@link dev.sluice.slap.SlapCommand} (the picocli {@code slap} command) and
 * {@link dev.sluice.slap.Slap#run(SlapOptions, java.io.PrintWriter, java.io.PrintWriter)} for code
 * that builds a {@link dev.sluice.slap.SlapOptions} itself.
 */
package dev.sluice.slap;
