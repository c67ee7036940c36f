package dev.sluice.proxy.command;

/**
 * What the proxy answers a client command itself (a KILL it ran, a command it refuses), in the
 * place of the backend's response: it goes out after the responses to the commands before it.
 *
 * @param errorCode   0 for OK, else the ERR's code
 * @param sqlState    the ERR's SQLSTATE (null for OK)
 * @param message     the ERR's message (null for OK)
 * @param endsSession the session closes after the ERR (it killed its own connection)
 */
public record OwnAnswer(int errorCode, String sqlState, String message, boolean endsSession) {

    public static final OwnAnswer OK = new OwnAnswer(0, null, null, false);

    public static OwnAnswer error(int code, String sqlState, String message) {
        return new OwnAnswer(code, sqlState, message, false);
    }

    public boolean ok() {
        return errorCode == 0;
    }
}
