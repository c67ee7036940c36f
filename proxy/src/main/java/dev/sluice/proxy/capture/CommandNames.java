package dev.sluice.proxy.capture;

import dev.sluice.protocol.Commands;

/**
 * Commands by the names MySQL gives them in its general log, processlist and slow log
 * ({@code Query}, {@code Prepare}, {@code Execute}, {@code Close stmt}, ...), which is what
 * users see elsewhere and what slap's replay reads back.
 */
final class CommandNames {

    private static final String[] NAMES = {
        "Sleep", "Quit", "Init DB", "Query", "Field List", "Create DB", "Drop DB", "Refresh", "Shutdown",
        "Statistics", "Processlist", "Connect", "Kill", "Debug", "Ping", "Time", "Delayed insert", "Change user",
        "Binlog Dump", "Table Dump", "Connect Out", "Register Slave", "Prepare", "Execute", "Long Data",
        "Close stmt", "Reset stmt", "Set option", "Fetch", "Daemon", "Binlog Dump GTID", "Reset Connection",
    };

    private CommandNames() {
    }

    static String of(int command) {
        if (command >= 0 && command < NAMES.length) {
            return NAMES[command];
        }
        if (command == Commands.COM_STMT_BULK_EXECUTE) {
            return "Bulk_execute";
        }
        return Commands.name(command);
    }

    /** Commands whose text is a statement (their own, or their prepared statement's). */
    static boolean isStatement(int command) {
        return switch (command) {
            case Commands.COM_QUERY, Commands.COM_STMT_PREPARE, Commands.COM_STMT_EXECUTE, Commands.COM_STMT_CLOSE,
                 Commands.COM_STMT_RESET, Commands.COM_STMT_FETCH, Commands.COM_STMT_BULK_EXECUTE -> true;
            default -> false;
        };
    }
}
