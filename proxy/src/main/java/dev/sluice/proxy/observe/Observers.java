package dev.sluice.proxy.observe;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Everything that watches statements (stats, digests, capture), switched on and off while the
 * proxy runs; sessions read {@link #current()} once per command.
 */
public final class Observers {

    private final List<StatementObserver> all = new CopyOnWriteArrayList<>();
    private volatile StatementObserver current = StatementObserver.NONE;

    /** All of them as one. */
    public StatementObserver current() {
        return current;
    }

    public void add(StatementObserver observer) {
        all.add(observer);
        current = CompositeObserver.of(all);
    }

    public void remove(StatementObserver observer) {
        all.remove(observer);
        current = CompositeObserver.of(all);
    }
}
