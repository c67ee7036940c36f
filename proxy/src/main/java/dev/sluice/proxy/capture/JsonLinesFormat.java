package dev.sluice.proxy.capture;

import dev.sluice.protocol.Commands;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * One JSON object per line. Every line has time (the start, UTC, microseconds), session, user,
 * client, schema, backend, command, sql, digest, digest_text, duration_us, rows_sent,
 * rows_affected, error, bytes_in and bytes_out; prepared-statement commands add statement_id, executes add
 * params (an array, or null with params_problem saying why); a cut command adds truncated; a
 * session's first line adds session_state (what a replay needs to open the session as it was).
 */
final class JsonLinesFormat implements CaptureFormat {

    private static final int ADDRESSES = 10_000;

    private final WallClock clock;
    /** Each session's address object is the same for all its statements: format it once. */
    private final Map<SocketAddress, String> addresses = new IdentityHashMap<>();

    JsonLinesFormat(WallClock clock) {
        this.clock = clock;
    }

    @Override
    public String header() {
        return "";
    }

    @Override
    public void append(StringBuilder out, CapturedStatement s, StatementRenderer text) {
        out.append('{');
        Json.field(out, "time").append('"');
        clock.appendIso(out, clock.micros(s.startNanos));
        out.append('"');
        Json.field(out, "session").append(s.sessionId);
        Json.string(Json.field(out, "user"), s.user);
        Json.string(Json.field(out, "client"), client(s.client));
        Json.string(Json.field(out, "schema"), s.schema);
        Json.string(Json.field(out, "backend"), s.backend);
        Json.string(Json.field(out, "command"), CommandNames.of(s.command));
        if (s.statementId >= 0) {
            Json.field(out, "statement_id").append(s.statementId);
        }
        Json.string(Json.field(out, "sql"), s.command == Commands.COM_INIT_DB ? text.schemaArgument : text.sql);
        Json.string(Json.field(out, "digest"), text.digestHex);
        Json.string(Json.field(out, "digest_text"), text.digestText);
        if (text.values != null) {
            Json.field(out, "params");
            if (text.values.values() == null) {
                out.append("null");
                Json.string(Json.field(out, "params_problem"), text.values.problem());
            } else {
                out.append('[');
                for (int i = 0; i < text.values.values().size(); i++) {
                    if (i > 0) {
                        out.append(',');
                    }
                    text.parameters().appendJson(out, text.values.values().get(i), text.values.types().get(i));
                }
                out.append(']');
            }
        }
        Json.field(out, "duration_us").append(s.latencyNanos / 1000);
        Json.field(out, "rows_sent").append(s.rowsSent);
        Json.field(out, "rows_affected").append(s.rowsAffected);
        Json.field(out, "error").append(s.errorCode);
        Json.field(out, "bytes_in").append(s.bytesIn);
        Json.field(out, "bytes_out").append(s.bytesOut);
        if (s.truncated) {
            Json.field(out, "truncated").append("true");
        }
        if (s.sessionState != null) {
            sessionState(Json.field(out, "session_state"), s.sessionState);
        }
        out.append("}\n");
    }

    private static void sessionState(StringBuilder out, SessionState state) {
        out.append("{\"login\":").append(state.login());
        if (state.collationId() >= 0) {
            out.append(",\"collation_id\":").append(state.collationId());
        }
        out.append(",\"variables\":");
        if (state.variables() == null) {
            out.append("null");
        } else {
            out.append('{');
            boolean first = true;
            for (Map.Entry<String, String> v : state.variables().entrySet()) {
                out.append(first ? "" : ",");
                Json.string(out, v.getKey());
                out.append(':');
                Json.string(out, v.getValue());
                first = false;
            }
            out.append('}');
        }
        out.append('}');
    }

    private String client(SocketAddress address) {
        if (address == null) {
            return null;
        }
        String text = addresses.get(address);
        if (text == null) {
            if (addresses.size() >= ADDRESSES) {
                addresses.clear();
            }
            text = address(address);
            addresses.put(address, text);
        }
        return text;
    }

    static String address(SocketAddress address) {
        if (address instanceof InetSocketAddress inet && inet.getAddress() != null) {
            String host = inet.getAddress().getHostAddress();
            return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + inet.getPort();
        }
        return address == null ? null : address.toString();
    }
}
