package dev.sluice.proxy.stats;

/**
 * One live session as the admin's sessions table shows it.
 *
 * @param pins       the reasons the session holds its backend connection now, comma-separated
 * @param idleMillis time since its last statement ended (or since it started)
 */
public record SessionRow(long id, String user, String client, String schema, String backend, String pins,
                         long statements, long toPrimary, long toReplica, long errors, long startedMillis,
                         long idleMillis) {
}
