package dev.sluice.cli;

import org.slf4j.bridge.SLF4JBridgeHandler;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code sluice} command: one subcommand per job. */
@Command(name = "sluice", mixinStandardHelpOptions = true, versionProvider = BuildVersion.class,
        description = "A transparent MySQL-protocol proxy with a mysqlslap-compatible load client.",
        subcommands = {CommandLine.HelpCommand.class, ProxyCommand.class, dev.sluice.slap.SlapCommand.class,
                DemoCommand.class, StatsCommand.class, DigestCommand.class})
public final class Main implements Runnable {

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        // Libraries that log through java.util.logging (Bouncy Castle, Prometheus, protobuf) then
        // log in the one format of simplelogger.properties, as everything else does.
        SLF4JBridgeHandler.removeHandlersForRootLogger();
        SLF4JBridgeHandler.install();
        System.exit(new CommandLine(new Main()).execute(args));
    }

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
