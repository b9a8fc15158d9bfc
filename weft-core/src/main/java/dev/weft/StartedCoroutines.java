package dev.weft;

import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

/**
 * One thread's asymmetric coroutines that have frames, held weakly so that an abandoned one is
 * still collected: what {@link CoroutineBase#closeAll()} closes besides the ring. Confined to its
 * thread.
 *
 * <p>Invariant: every asymmetric coroutine that the thread owns, has started (or been given
 * frames) and has not finished has an entry here. Entries that no longer count (of coroutines
 * collected, finished, or stolen by another thread) are not removed one by one but swept out as
 * the list grows, so that adding is O(1) amortized and a coroutine holds no link back to its
 * entry; a coroutine stolen away and back has two entries, which {@link #live()} counts once.
 */
final class StartedCoroutines {

    /*
     * Implementation notes: an entry is a bare WeakReference (32 bytes with its header), one per
     * started coroutine, and a coroutine has no field for it: with a million suspended coroutines,
     * a back link and an index would cost 8 bytes each in the coroutine and 8 in the entry. The
     * price is the sweep, which reads each entry's coroutine once per doubling of the list.
     */

    private final CoroutineSupport owner;
    private final List<WeakReference<AsymCoroutine<?, ?>>> entries = new ArrayList<>();
    private int sweepAt = 64;

    StartedCoroutines(CoroutineSupport owner) {
        this.owner = owner;
    }

    /** Tracks {@code coroutine}, which has just started, been given frames or been stolen by this thread. */
    void add(AsymCoroutine<?, ?> coroutine) {
        if (entries.size() >= sweepAt) {
            sweep();
        }
        entries.add(new WeakReference<>(coroutine));
    }

    /** The live coroutines tracked here, each once, in the order they were tracked (roughly: sweeps move entries). */
    List<AsymCoroutine<?, ?>> live() {
        sweep();
        Set<AsymCoroutine<?, ?>> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        List<AsymCoroutine<?, ?>> live = new ArrayList<>(entries.size());
        for (WeakReference<AsymCoroutine<?, ?>> entry : entries) {
            AsymCoroutine<?, ?> c = entry.get();
            if (c != null && seen.add(c)) {
                live.add(c);
            }
        }
        return live;
    }

    /** How many entries the list holds, counted ones and ones not yet swept out alike (for tests). */
    int entryCount() {
        return entries.size();
    }

    /** Drops the entries of coroutines collected, finished, or owned by another thread since they were stolen. */
    private void sweep() {
        int kept = 0;
        for (int i = 0; i < entries.size(); i++) {
            WeakReference<AsymCoroutine<?, ?>> entry = entries.get(i);
            AsymCoroutine<?, ?> c = entry.get();
            if (c != null && c.owner() == owner && !c.isFinished()) {
                entries.set(kept++, entry);
            }
        }
        entries.subList(kept, entries.size()).clear();
        sweepAt = Math.max(64, 2 * kept);
    }
}
