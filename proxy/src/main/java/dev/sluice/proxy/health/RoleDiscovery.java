package dev.sluice.proxy.health;

import dev.sluice.proxy.backend.Backend;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The roles of {@code role: auto} backends, from their {@code @@read_only} as the health checks
 * last read it: the one writable backend is the primary, the others are replicas. Two or more
 * writable at once is a split brain in the making: none of them takes writes (they wait, then
 * fail) unless {@code routing.preferred_primary} names one of them. A backend out of rotation
 * (SHUNNED, OFFLINE) is not writable, whatever it said last; one whose last check failed keeps
 * its role until it is shunned, so a slow check does not stop the writes. Runs on the health
 * checker's loop only.
 */
final class RoleDiscovery {

    private static final Logger log = LoggerFactory.getLogger(RoleDiscovery.class);

    /** What one decision found. */
    record Decision(Backend primary, List<Backend> writable) {
        boolean conflict() {
            return primary == null && writable.size() > 1;
        }
    }

    private Backend announcedPrimary;
    private List<String> announcedConflict = List.of();
    private boolean announcedNone;

    /** The primary among {@code backends}' auto ones, with their read_only as {@code readOnly} gives it. */
    static Decision decide(List<Backend> backends, Function<Backend, Boolean> readOnly, Optional<String> preferred) {
        List<Backend> writable = new ArrayList<>();
        for (Backend backend : backends) {
            if (backend.config().isAuto() && inRotation(backend) && Boolean.FALSE.equals(readOnly.apply(backend))) {
                writable.add(backend);
            }
        }
        if (writable.size() == 1) {
            return new Decision(writable.get(0), writable);
        }
        Backend chosen = preferred.flatMap(name -> writable.stream().filter(b -> b.name().equals(name)).findFirst())
                .orElse(null);
        return new Decision(chosen, writable);
    }

    /**
     * Applies a decision to the auto backends and logs what changed.
     *
     * @return why no backend takes writes, or null when one does (or there is no auto backend)
     */
    String apply(List<Backend> backends, Decision decision) {
        boolean anyAuto = false;
        for (Backend backend : backends) {
            if (backend.config().isAuto()) {
                anyAuto = true;
                backend.discoveredPrimary(backend == decision.primary());
            }
        }
        if (!anyAuto) {
            return null;
        }
        announce(decision);
        if (decision.primary() != null) {
            return null;
        }
        if (decision.conflict()) {
            return names(decision.writable()) + " all have read_only off: no writes go to any of them until all but one"
                    + " are read_only, or routing.preferred_primary names one (a split brain otherwise)";
        }
        return "no backend with role auto has read_only off"
                + (backends.stream().anyMatch(b -> b.config().isAuto() && !inRotation(b)) ? " among those in rotation" : "");
    }

    private void announce(Decision decision) {
        Backend primary = decision.primary();
        if (primary != null && primary != announcedPrimary) {
            log.info("backend {} is the primary now: its read_only is off{}{}", primary.name(),
                    announcedPrimary == null ? "" : " (was " + announcedPrimary.name() + ")",
                    decision.writable().size() > 1 ? "; it is routing.preferred_primary among " + names(decision.writable())
                            : "");
        }
        List<String> conflict = decision.conflict() ? decision.writable().stream().map(Backend::name).toList() : List.of();
        if (!conflict.isEmpty() && !conflict.equals(announcedConflict)) {
            log.warn("backends {} all have read_only off: writes go to none of them (they wait timeouts.primary_wait, then"
                    + " fail) until all but one are read_only, or routing.preferred_primary names one",
                    names(decision.writable()));
        }
        boolean none = primary == null && conflict.isEmpty();
        if (none && !announcedNone) {
            log.warn("no backend with role auto has read_only off (or is in rotation): writes wait for one"
                    + " (timeouts.primary_wait)");
        }
        announcedPrimary = primary;
        announcedConflict = conflict;
        announcedNone = none;
    }

    private static boolean inRotation(Backend backend) {
        return backend.state() != Backend.State.SHUNNED && backend.state() != Backend.State.OFFLINE;
    }

    private static String names(List<Backend> backends) {
        return String.join(", ", backends.stream().map(Backend::name).toList());
    }
}
