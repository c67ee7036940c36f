package dev.sluice.proxy.routing;

import dev.sluice.proxy.backend.Backend;
import java.util.Optional;
import java.util.Set;

/**
 * Decides where sessions (and, in split mode, statements) go. Session mode asks once per client
 * session; the split mode of a later issue asks per statement.
 */
public interface Router {

    /**
     * A backend for a new session, never one that is out of rotation or in {@code exclude}
     * (backends that just refused this session); empty when there is none.
     */
    Optional<Backend> pickForSession(Set<Backend> exclude);

    /** The backends to route to from now on (a config reload changed them). */
    void backends(java.util.List<Backend> current);
}
