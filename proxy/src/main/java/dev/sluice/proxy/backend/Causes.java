package dev.sluice.proxy.backend;

/** Reading what went wrong out of an exception that Netty wrapped. */
public final class Causes {

    private Causes() {
    }

    /** The innermost cause's message: "Too many open files" rather than "Unable to create Channel from class ...". */
    public static String rootMessage(Throwable error) {
        Throwable root = error;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root.getMessage();
        return message == null || message.isBlank() ? root.getClass().getSimpleName() : message;
    }
}
