package dev.sluice.proxy.capture;

import dev.sluice.protocol.Commands;
import java.net.InetSocketAddress;
import java.util.Objects;

/**
 * MariaDB's slow query log, which pt-query-digest and mysqldumpslow read unchanged:
 * <pre>
 * # Time: 250601 10:00:00
 * # User@Host: app[app] @ 127.0.0.1 [127.0.0.1]
 * # Thread_id: 12  Schema: sbtest  QC_hit: No
 * # Query_time: 0.000123  Lock_time: 0.000000  Rows_sent: 1  Rows_examined: 0
 * # Rows_affected: 0  Last_errno: 0  Backend: primary
 * use sbtest;
 * SET timestamp=1748772000;
 * SELECT c FROM sbtest1 WHERE id=5;
 * </pre>
 * Executes show their values in place, as MySQL logs them; other commands are written as MySQL
 * writes them with log_slow_admin_statements, e.g. {@code # administrator command: Prepare;}, but
 * without a {@code SET timestamp} line before them, which would make mysqldumpslow count them twice. COM_STMT_CLOSE, which the server does not time, has no
 * entry. Rows_examined is not known to a proxy and is always 0.
 */
final class SlowLogFormat implements CaptureFormat {

    private final WallClock clock;
    private String lastSchema;

    SlowLogFormat(WallClock clock) {
        this.clock = clock;
    }

    @Override
    public String header() {
        return "/usr/sbin/mariadbd, Version: sluice capture (slow query log format). started with:\n"
                + "Tcp port: 0  Unix socket: (none)\n"
                + "Time                 Id Command    Argument\n";
    }

    @Override
    public void newFile() {
        lastSchema = null;
    }

    @Override
    public void append(StringBuilder out, CapturedStatement s, StatementRenderer text) {
        if (s.command == Commands.COM_STMT_CLOSE) {
            return;
        }
        long micros = clock.micros(s.startNanos);
        String user = s.user == null ? "unknown" : s.user;
        String host = s.client instanceof InetSocketAddress inet && inet.getAddress() != null
                ? inet.getAddress().getHostAddress() : "unknown";
        out.append("# Time: ").append(clock.mariaDb(micros + s.latencyNanos / 1000)).append('\n');
        out.append("# User@Host: ").append(user).append('[').append(user).append("] @ ").append(host).append(" [")
                .append(host).append("]\n");
        out.append("# Thread_id: ").append(s.sessionId).append("  Schema: ").append(s.schema == null ? "" : s.schema)
                .append("  QC_hit: No\n");
        out.append("# Query_time: ");
        seconds(out, s.latencyNanos / 1000);
        out.append("  Lock_time: 0.000000  Rows_sent: ").append(s.rowsSent).append("  Rows_examined: 0\n");
        out.append("# Rows_affected: ").append(s.rowsAffected).append("  Bytes_sent: ").append(s.bytesOut)
                .append("  Last_errno: ").append(s.errorCode);
        if (s.backend != null) {
            out.append("  Backend: ").append(s.backend);
        }
        out.append('\n');
        boolean statement = s.command == Commands.COM_QUERY || s.command == Commands.COM_STMT_EXECUTE;
        if (!statement || text.expanded == null) {
            // Nothing that ends in ";" before it: mysqldumpslow splits entries at ";\n#".
            out.append("# administrator command: ").append(CommandNames.of(s.command)).append(";\n");
            return;
        }
        if (s.schema != null && !s.schema.isEmpty() && !Objects.equals(s.schema, lastSchema)) {
            out.append("use `").append(s.schema.replace("`", "``")).append("`;\n");
            lastSchema = s.schema;
        }
        out.append("SET timestamp=").append(Math.floorDiv(micros, 1_000_000)).append(";\n");
        out.append(text.expanded).append(";\n");
    }

    private static void seconds(StringBuilder out, long micros) {
        out.append(micros / 1_000_000).append('.');
        long fraction = micros % 1_000_000;
        for (long digits = 100_000; digits > 0; digits /= 10) {
            out.append((char) ('0' + fraction / digits % 10));
        }
    }
}
