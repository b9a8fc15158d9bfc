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
     * Implementation notes: an entry is a WeakReference with a link to the next entry, one per
     * started coroutine (32 bytes with its header, the same as a bare WeakReference, whose four
     * fields leave four bytes of padding that the link takes), and a coroutine has no field for
     * it: with a million suspended coroutines, a back link and an index would cost 8 bytes each
     * in the coroutine and 8 in the entry, and a list of bare references 4 to 6 bytes a slot
     * more. The entries form a chain, oldest first; the price is the sweep, which reads each
     * entry's coroutine once per doubling of the chain.
     */

    /** A tracked coroutine, held weakly, and the entry added after it. */
    private static final class Entry extends WeakReference<AsymCoroutine<?, ?>> {
        Entry next;

        Entry(AsymCoroutine<?, ?> coroutine) {
            super(coroutine);
        }
    }

    private final CoroutineSupport owner;
    /** The oldest entry and the newest, both null when there are none. */
    private Entry oldest;
    private Entry newest;
    private int entryCount;
    private int sweepAt = 64;

    StartedCoroutines(CoroutineSupport owner) {
        this.owner = owner;
    }

    /** Tracks {@code coroutine}, which has just started, been given frames or been stolen by this thread. */
    void add(AsymCoroutine<?, ?> coroutine) {
        if (entryCount >= sweepAt) {
            sweep();
        }
        Entry added = new Entry(coroutine);
        if (newest == null) {
            oldest = added;
        } else {
            newest.next = added;
        }
        newest = added;
        entryCount++;
    }

    /** The live coroutines tracked here, each once, in the order they were first tracked. */
    List<AsymCoroutine<?, ?>> live() {
        sweep();
        Set<AsymCoroutine<?, ?>> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        List<AsymCoroutine<?, ?>> live = new ArrayList<>(entryCount);
        for (Entry e = oldest; e != null; e = e.next) {
            AsymCoroutine<?, ?> c = e.get();
            if (c != null && seen.add(c)) {
                live.add(c);
            }
        }
        return live;
    }

    /**
     * Adds the coroutines tracked here to {@code out}, from any thread and without changing
     * anything: a racy read, for a dump. Links only ever point to newer entries, so the walk
     * ends; it may miss an entry added or see one swept out meanwhile, and the caller checks
     * each coroutine's owner and state itself.
     */
    void snapshotInto(List<CoroutineBase> out) {
        for (Entry e = oldest; e != null; e = e.next) {
            AsymCoroutine<?, ?> c = e.get();
            if (c != null) {
                out.add(c);
            }
        }
    }

    /** How many entries the list holds, counted ones and ones not yet swept out alike (for tests). */
    int entryCount() {
        return entryCount;
    }

    /** Drops the entries of coroutines collected, finished, or owned by another thread since they were stolen. */
    private void sweep() {
        Entry kept = null;
        int count = 0;
        for (Entry e = oldest; e != null; e = e.next) {
            AsymCoroutine<?, ?> c = e.get();
            if (c != null && c.owner() == owner && !c.isFinished()) {
                if (kept == null) {
                    oldest = e;
                } else {
                    kept.next = e;
                }
                kept = e;
                count++;
            }
        }
        if (kept == null) {
            oldest = null;
        } else {
            kept.next = null;
        }
        newest = kept;
        entryCount = count;
        sweepAt = Math.max(64, 2 * count);
    }
}
