package dev.sluice.slap;

import java.io.Console;
import java.lang.reflect.Method;

/** Whether slap talks to a person at a terminal, which is when it shows a progress line. */
final class Terminal {

    private Terminal() {
    }

    static boolean interactive() {
        Console console = System.console();
        if (console == null) {
            return false;
        }
        // From JDK 22 on System.console() is not null when redirected; isTerminal() tells the truth.
        try {
            Method isTerminal = Console.class.getMethod("isTerminal");
            return (Boolean) isTerminal.invoke(console);
        } catch (ReflectiveOperationException e) {
            return true;
        }
    }
}
