package dev.weft.internal.events;

import dev.weft.Coroutine;
import dev.weft.CoroutineBase;

import java.util.Locale;

/**
 * Commits the JFR events of a coroutine's life, each only if a recording has it enabled: a
 * disabled event costs its {@code isEnabled()} check, a load that the JIT compiles to a test of
 * one field, and its object, which escape analysis removes. Only {@code dev.weft}'s {@code Events}
 * calls here, after checking that {@code jdk.jfr} is present. Any thread.
 *
 * <p>The events: {@code dev.weft.CoroutineCreated}, {@code CoroutineFinished},
 * {@code CoroutineFailed}, {@code CoroutineClosed}, {@code CoroutineStolen},
 * {@code CoroutineSerialized}, {@code CoroutineDeserialized}, enabled by default, and
 * {@code dev.weft.CoroutineSwitch}, one per switch, disabled by default, as the JDK's
 * {@code jdk.VirtualThreadStart} is. Category "Weft / Coroutines", no stack trace.
 */
public final class Jfr {

    /** Asked for its enabled state alone, on the switch path; never committed. */
    private static final CoroutineSwitch SWITCHES = new CoroutineSwitch();

    private Jfr() {
    }

    public static void created(CoroutineBase c) {
        CoroutineCreated e = new CoroutineCreated();
        if (e.isEnabled()) {
            e.coroutineClass = c.getClass().getName();
            commit(e, c);
        }
    }

    public static void finished(CoroutineBase c) {
        CoroutineFinished e = new CoroutineFinished();
        if (e.isEnabled()) {
            commit(e, c);
        }
    }

    public static void failed(CoroutineBase c, Throwable failure) {
        CoroutineFailed e = new CoroutineFailed();
        if (e.isEnabled()) {
            e.exceptionClass = failure.getClass().getName();
            e.exceptionMessage = failure.getMessage();
            commit(e, c);
        }
    }

    public static void closed(CoroutineBase c) {
        CoroutineClosed e = new CoroutineClosed();
        if (e.isEnabled()) {
            commit(e, c);
        }
    }

    public static void stolen(CoroutineBase c, Thread from) {
        CoroutineStolen e = new CoroutineStolen();
        if (e.isEnabled()) {
            e.fromThread = from.getName();
            commit(e, c);
        }
    }

    public static void serialized(CoroutineBase c, int frames) {
        CoroutineSerialized e = new CoroutineSerialized();
        if (e.isEnabled()) {
            e.frames = frames;
            commit(e, c);
        }
    }

    public static void deserialized(CoroutineBase c, int frames) {
        CoroutineDeserialized e = new CoroutineDeserialized();
        if (e.isEnabled()) {
            e.frames = frames;
            commit(e, c);
        }
    }

    /** Whether a recording has {@code dev.weft.CoroutineSwitch} enabled. */
    public static boolean switchesRecorded() {
        return SWITCHES.isEnabled();
    }

    /** Commits a switch event; called when {@link #switchesRecorded()}. */
    public static void switched(CoroutineBase c, String previousState) {
        CoroutineSwitch e = new CoroutineSwitch();
        e.previousState = previousState;
        commit(e, c);
    }

    private static void commit(CoroutineEvent e, CoroutineBase c) {
        e.coroutine = c.getName();
        e.kind = c instanceof Coroutine ? "symmetric" : "asymmetric";
        e.engine = c.engine().name().toLowerCase(Locale.ROOT);
        e.commit();
    }
}
