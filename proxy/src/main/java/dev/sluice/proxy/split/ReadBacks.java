package dev.sluice.proxy.split;

import dev.sluice.protocol.packet.SessionStateChange;
import dev.sluice.protocol.response.Response;
import dev.sluice.proxy.backend.ServerFlavor;
import dev.sluice.proxy.backend.TrackedConnection;
import dev.sluice.proxy.backend.SessionVariables;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * What a statement changed that its response did not say, asked of its connection before the
 * session moves on: collation_connection after SET NAMES (MariaDB's session tracking leaves it
 * out), session variables a SET assigned that the tracker does not report (sql_safe_updates,
 * foreign_key_checks...), and the GTID of a procedure's writes. Each is one query, run only when
 * needed: any query resets what the next statement may ask of this one (warnings, FOUND_ROWS()).
 */
final class ReadBacks {

    private final SessionVariables desired;
    private final ReadYourWrites readYourWrites;
    /** SET NAMES or SET CHARACTER SET ran: collation_connection changed unreported. */
    private boolean collationUnknown;
    /** The response in flight reported the session's last_gtid. */
    private boolean gtidReported;
    /** The system variables the response in flight reported, lower case; the shared empty set until one is. */
    private Set<String> reportedVariables = java.util.Collections.emptySet();

    ReadBacks(SessionVariables desired, ReadYourWrites readYourWrites) {
        this.desired = desired;
        this.readYourWrites = readYourWrites;
    }

    /** A statement is sent: nothing is reported for it yet. */
    void statementSent() {
        reportedVariables.clear();
    }

    /** What the server reported of the statement's session-state changes. */
    void reported(TrackedChanges tracked, List<SessionStateChange> changes) {
        collationUnknown |= tracked.collationUnknown();
        gtidReported |= tracked.gtidReported();
        for (SessionStateChange change : changes) {
            if (change instanceof SessionStateChange.SystemVariable variable) {
                if (!(reportedVariables instanceof HashSet)) {
                    reportedVariables = new HashSet<>();
                }
                reportedVariables.add(variable.name().toLowerCase(Locale.ROOT));
            }
        }
    }

    /**
     * After the response to a statement ({@code route} null when the proxy sent it), on the
     * connection it ran on (null when none is held any more): reads back what is unknown, then
     * runs {@code then}, at once when nothing is.
     */
    void afterResponse(RoutedStatement route, Response response, TrackedConnection connection, Runnable then) {
        List<String> unreported = unreportedVariables(route, response);
        boolean gtidKnown = gtidReported;
        gtidReported = false;
        if (connection == null) {
            then.run();
        } else if (!unreported.isEmpty()) {
            readBack(unreported, connection, then);
        } else if (readYourWrites.gtidMode() && !gtidKnown && route != null && route.callsProcedure()
                && !response.isError() && response.statusKnown() && !response.inTransaction()
                && connection.backend().isPrimary() && connection.identity().flavor() == ServerFlavor.MARIADB) {
            // Any other write's OK reports its GTID; a procedure's may not (MySQL's GTID tracker does).
            String[] gtid = new String[1];
            connection.sendOwnQuery("SELECT @@last_gtid", row -> gtid[0] = ConnectionSetup.firstColumn(row), done -> {
                readYourWrites.gtid(gtid[0]);
                then.run();
            });
        } else {
            then.run();
        }
    }

    private List<String> unreportedVariables(RoutedStatement route, Response response) {
        List<String> names = new ArrayList<>();
        if (collationUnknown) {
            names.add("collation_connection");
            collationUnknown = false;
        }
        if (route != null && !response.isError()) {
            for (String name : route.sessionVariablesSet()) {
                if (!reportedVariables.contains(name) && !names.contains(name)) {
                    names.add(name);
                }
            }
        }
        reportedVariables.clear();
        return names;
    }

    private void readBack(List<String> names, TrackedConnection connection, Runnable then) {
        StringBuilder select = new StringBuilder("SELECT ");
        for (int i = 0; i < names.size(); i++) {
            select.append(i == 0 ? "" : ", ").append("@@session.").append(names.get(i));
        }
        List<String> values = new ArrayList<>();
        connection.sendOwnQuery(select.toString(), row -> values.addAll(ConnectionSetup.columns(row, names.size())), done -> {
            if (!done.isError() && values.size() == names.size()) {
                for (int i = 0; i < names.size(); i++) {
                    if (values.get(i) != null) {
                        desired.set(names.get(i), values.get(i));
                        connection.state().set(names.get(i), values.get(i));
                    }
                }
            }
            then.run();
        });
    }
}
