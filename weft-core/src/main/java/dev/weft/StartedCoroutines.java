package dev.weft;

import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;

/**
 * One thread's asymmetric coroutines that have frames and have not finished, held
 * weakly so that an abandoned one is still collected: what {@link CoroutineBase#closeAll()}
 * closes besides the ring. Confined to its thread; adding and removing are O(1), and entries of collected or
 * stolen coroutines are swept out as the list grows.
 */
final class StartedCoroutines {

    /** A coroutine's place in the list; the coroutine points back at it while it is tracked here. */
    static final class Entry extends WeakReference<AsymCoroutine<?, ?>> {
        final StartedCoroutines list;
        int index;

        Entry(AsymCoroutine<?, ?> coroutine, StartedCoroutines list) {
            super(coroutine);
            this.list = list;
        }
    }

    private final List<Entry> entries = new ArrayList<>();
    private int sweepAt = 64;

    void add(AsymCoroutine<?, ?> coroutine) {
        if (entries.size() >= sweepAt) {
            sweep();
        }
        Entry entry = new Entry(coroutine, this);
        entry.index = entries.size();
        entries.add(entry);
        coroutine.tracked = entry;
    }

    void remove(AsymCoroutine<?, ?> coroutine) {
        Entry entry = coroutine.tracked;
        if (entry != null && entry.list == this) {
            coroutine.tracked = null;
            removeAt(entry.index);
        }
    }

    /** The live coroutines tracked here, in the order they started (roughly: removals swap). */
    List<AsymCoroutine<?, ?>> live() {
        sweep();
        List<AsymCoroutine<?, ?>> live = new ArrayList<>(entries.size());
        for (Entry entry : entries) {
            AsymCoroutine<?, ?> c = entry.get();
            if (c != null) {
                live.add(c);
            }
        }
        return live;
    }

    /** Drops the entries of coroutines collected, finished, or tracked elsewhere since they were stolen. */
    private void sweep() {
        for (int i = entries.size() - 1; i >= 0; i--) {
            Entry entry = entries.get(i);
            AsymCoroutine<?, ?> c = entry.get();
            if (c == null || c.tracked != entry || c.isFinished()) {
                removeAt(i);
            }
        }
        sweepAt = Math.max(64, entries.size() * 2);
    }

    private void removeAt(int index) {
        Entry last = entries.remove(entries.size() - 1);
        if (index < entries.size()) {
            entries.set(index, last);
            last.index = index;
        }
    }
}
