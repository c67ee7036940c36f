package dev.sluice.proxy.kill;

/**
 * What the session that sent a KILL answers its client.
 *
 * @param errorCode   0 for OK, else the ERR's code
 * @param sqlState    the ERR's SQLSTATE (null for OK)
 * @param message     the ERR's message (null for OK)
 * @param endsSession the session closes after the ERR (it killed its own connection)
 */
public record KillResult(int errorCode, String sqlState, String message, boolean endsSession) {

    static final KillResult OK = new KillResult(0, null, null, false);

    static KillResult error(int code, String sqlState, String message) {
        return new KillResult(code, sqlState, message, false);
    }

    public boolean ok() {
        return errorCode == 0;
    }
}
