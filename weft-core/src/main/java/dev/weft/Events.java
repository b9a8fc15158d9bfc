package dev.weft;

import dev.weft.internal.events.Jfr;

/**
 * Where the scheduler reports a coroutine's life to JFR ({@link Jfr}): creation, the end of its
 * body, steals, serialization, and, when a recording asks for them, switches. Nothing happens
 * when the JVM has no {@code jdk.jfr} module, or this module cannot read it (on the module
 * path: {@code --add-modules jdk.jfr}); the check is a constant once compiled. Any thread.
 */
final class Events {

    /** Whether {@code jdk.jfr} is there for this module: decided once. */
    private static final boolean JFR = jfrPresent();

    private Events() {
    }

    private static boolean jfrPresent() {
        Module weft = Events.class.getModule();
        return ModuleLayer.boot().findModule("jdk.jfr").map(weft::canRead).orElse(false);
    }

    static void created(CoroutineBase c) {
        if (JFR) {
            Jfr.created(c);
        }
    }

    /** {@code c} has just finished: closed, failed with the failure it keeps, or returned. */
    static void finished(CoroutineBase c, Throwable kept) {
        if (!JFR) {
            return;
        }
        if (kept != null) {
            Jfr.failed(c, kept);
        } else if (c.isExitRequested()) {
            Jfr.closed(c);
        } else {
            Jfr.finished(c);
        }
    }

    static void stolen(CoroutineBase c, Thread from) {
        if (JFR) {
            Jfr.stolen(c, from);
        }
    }

    static void serialized(CoroutineBase c, int frames) {
        if (JFR) {
            Jfr.serialized(c, frames);
        }
    }

    static void deserialized(CoroutineBase c, int frames) {
        if (JFR) {
            Jfr.deserialized(c, frames);
        }
    }

    /**
     * {@code c} has just been taken to run from state {@code prior}: on the switch path, so a
     * constant and one field's test when no recording has switch events on.
     */
    static void taken(CoroutineBase c, int prior) {
        if (JFR && Jfr.switchesRecorded()) {
            Jfr.switched(c, prior == CoroutineBase.NEW ? "new" : "suspended");
        }
    }
}
