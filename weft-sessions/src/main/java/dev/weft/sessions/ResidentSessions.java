package dev.weft.sessions;

import dev.weft.AsymCoroutine;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The suspended coroutines of the sessions this node stepped last, kept in memory so that the
 * next step of one of them can run without reading its state back (see
 * {@link Sessions.Builder#keepResident(int)}): at most {@code capacity}, the least recently
 * stepped dropped first. Each entry is the session's coroutine as it was stored at its
 * version, with the thread that ran it: only that thread may resume it (a coroutine moved to
 * another thread may still see the first thread's thread-locals in compiled code, and a step's
 * {@link StepContext} is one). An entry is taken out while its step runs and put back only
 * after a commit, so it never holds a state the store does not.
 *
 * <p>Thread-safe.
 */
final class ResidentSessions {

    /** A session's coroutine as it was {@code stored}, of {@code build}, ready to run its next step on {@code owner}. */
    record Entry(SessionStore.Version stored, String build, Thread owner, AsymCoroutine<?, ?> coroutine) {
    }

    private final int capacity;
    private final Map<String, Entry> entries;

    ResidentSessions(int capacity) {
        this.capacity = capacity;
        this.entries = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, ResidentSessions.Entry> eldest) {
                return size() > ResidentSessions.this.capacity;
            }
        };
    }

    /** Takes out session {@code id}'s entry if this thread may resume it; else drops it and returns null. */
    synchronized Entry take(String id) {
        if (capacity == 0) {
            return null;
        }
        Entry entry = entries.remove(id);
        return entry != null && entry.owner() == Thread.currentThread() ? entry : null;
    }

    /** Keeps {@code coroutine}, just {@code stored} as session {@code id} of {@code build}, for this thread. */
    synchronized void put(String id, SessionStore.Version stored, String build, AsymCoroutine<?, ?> coroutine) {
        if (capacity > 0) {
            entries.put(id, new Entry(stored, build, Thread.currentThread(), coroutine));
        }
    }

    synchronized void drop(String id) {
        entries.remove(id);
    }
}
