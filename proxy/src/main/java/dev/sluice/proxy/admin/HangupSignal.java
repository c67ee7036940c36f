package dev.sluice.proxy.admin;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Proxy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * SIGHUP as "reload the config", the way daemons take it. The JDK's only hook for signals is
 * sun.misc.Signal (module jdk.unsupported); it is reached reflectively so the build stays free of
 * internal-API warnings, and where it is missing the proxy simply does without.
 */
final class HangupSignal {

    private static final Logger log = LoggerFactory.getLogger(HangupSignal.class);

    private HangupSignal() {
    }

    /** Runs {@code action} on each SIGHUP (on the JVM's signal thread: keep it short or hand it off). */
    static boolean install(Runnable action) {
        try {
            Class<?> signalType = Class.forName("sun.misc.Signal");
            Class<?> handlerType = Class.forName("sun.misc.SignalHandler");
            Object signal = signalType.getConstructor(String.class).newInstance("HUP");
            InvocationHandler onSignal = (proxy, method, args) -> {
                if (method.getName().equals("handle")) {
                    action.run();
                    return null;
                }
                return switch (method.getName()) {
                    case "hashCode" -> System.identityHashCode(proxy);
                    case "equals" -> proxy == args[0];
                    default -> "sluice SIGHUP handler";
                };
            };
            Object handler = Proxy.newProxyInstance(HangupSignal.class.getClassLoader(), new Class<?>[] {handlerType}, onSignal);
            signalType.getMethod("handle", signalType, handlerType).invoke(null, signal, handler);
            return true;
        } catch (ReflectiveOperationException | IllegalArgumentException | LinkageError e) {
            log.warn("SIGHUP cannot trigger a reload here ({}); use the admin command RELOAD CONFIG", e.toString());
            return false;
        }
    }
}
