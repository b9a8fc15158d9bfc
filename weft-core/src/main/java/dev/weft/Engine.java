package dev.weft;

import dev.weft.internal.engine.Engines;

import java.util.Locale;

/**
 * What suspends and resumes a coroutine's stack. Chosen when the coroutine is created; the API
 * and its semantics are the same on both, within the limits each states.
 *
 * <h2>The default engine</h2>
 * A constructor that takes no engine uses the default engine: {@link #NATIVE} on JDK 21 and
 * later, {@link #WOVEN} on JDK 17 to 20 (where the native engine cannot run), unless the system
 * property {@value #DEFAULT_PROPERTY} says {@code native} or {@code woven} (read the first time
 * the default is needed), or the program sets it with {@link #setDefault}, which wins over the
 * property. Setting it changes the engine of coroutines created afterwards, on any thread; a
 * thread's initial coroutine is always {@link #NATIVE}'s.
 *
 * <h2>Which engine for which code</h2>
 * <table>
 *   <caption>Choosing an engine (measured with weft-bench's DepthSwitchBenchmark and
 *   SameFringeBenchmark: sections 1b and 7 of BENCHMARKS.md)</caption>
 *   <tr><th>the code</th><th>engine</th><th>why</th></tr>
 *   <tr><td>generators, rings and chains of coroutines that switch often, suspended at any depth
 *       below their body, and recursive generators that return a frame or two between two
 *       switches</td><td>{@link #WOVEN}</td><td>a call and ret cost about a third of the native
 *       engine's (some 33 ns against 100), the same at every depth; a recursive walk that rets
 *       each leaf of a tree, some 165 ns a leaf against 255 (same-fringe)</td></tr>
 *   <tr><td>code that goes down many frames and back up between two switches (ten frames and
 *       more)</td><td>{@link #NATIVE}</td><td>the woven engine saves and rebuilds each frame
 *       that ran, some 12 ns a frame, where HotSpot copies frames in bulk (some 2.5 ns a
 *       frame): down and back up through 10 frames, some 250 ns against 140; through 50, 700
 *       against 190</td></tr>
 *   <tr><td>suspensions inside JDK callbacks ({@code List.forEach}), reflection, classes that
 *       are not woven, or {@code synchronized}</td><td>{@link #NATIVE}</td><td>the woven engine
 *       refuses them: it can unwind woven frames only</td></tr>
 *   <tr><td>a JVM without {@code --add-exports java.base/jdk.internal.vm}</td>
 *       <td>{@link #WOVEN}</td><td>it uses no JDK-internal API</td></tr>
 *   <tr><td>JDK 17 to 20</td><td>{@link #WOVEN}</td><td>the only engine there: the native
 *       engine needs JDK 21's continuations, and creating a coroutine on it throws an exception
 *       that says so</td></tr>
 *   <tr><td>coroutines kept suspended for long, or serialized often</td><td>{@link #WOVEN}</td>
 *       <td>its frames are saved already: {@code serialize()} reads them without resuming</td></tr>
 * </table>
 */
public enum Engine {

    /**
     * HotSpot's own continuations (the default on JDK 21 and later; on an older JDK, creating a
     * coroutine on it throws {@link IllegalStateException} naming the JDK it needs). Any code
     * may suspend, woven or not, including callbacks that JDK code calls; only native frames (a
     * class initializer, JNI) and, before JDK 24, monitors are refused. A switch freezes and thaws
     * the frames involved, so its cost grows little with depth. Serializing a coroutine needs its code woven by
     * {@code weft-weaver}.
     */
    NATIVE,

    /**
     * The coroutine's woven code saves its own frames and returns on every suspension (Kilim's
     * scheme), through the twin methods the weaver adds, and a resume rebuilds only the innermost
     * saved frame, each outer one as the frame above it returns: no JDK-internal API is involved,
     * and a switch costs the same at any depth, less than the native engine's. Its body must be
     * woven code (a subclass overriding {@code run}, a {@code Runnable} or {@code AsymRunnable}
     * class, or a lambda or method reference written in a woven class), and every frame between
     * the body and a suspension point must be a woven method (or a woven class's lambda) called
     * from woven code and holding no monitor. A suspension reached any other way (through a JDK
     * callback, reflection, a class that is not woven, inside {@code synchronized}) is refused
     * with an exception that names the frame, and the coroutine is left as it was. A suspended coroutine's frames are saved already:
     * {@code serialize()} reads them without resuming it, and they are the same frames the
     * native engine captures, so that frames move between the engines both ways.
     */
    WOVEN;

    /** The system property that sets the default engine: {@code native} or {@code woven}, in any case. */
    public static final String DEFAULT_PROPERTY = "weft.engine";

    /** Set by {@link #setDefault}; null until then. */
    private static volatile Engine chosen;

    /**
     * The engine of coroutines created without one: the one {@link #setDefault} set, else the
     * one the system property {@value #DEFAULT_PROPERTY} names, else {@link #NATIVE} on JDK 21 and
     * later and {@link #WOVEN} before. Any thread.
     *
     * @return the default engine
     * @throws IllegalStateException if the property names no engine
     */
    public static Engine defaultEngine() {
        Engine engine = chosen;
        if (engine == null) {
            engine = FromProperty.ENGINE;
            if (engine == null) {
                return parse(FromProperty.VALUE); // throws, naming the value
            }
        }
        return engine;
    }

    /**
     * Makes {@code engine} the engine of coroutines created without one from now on, on every
     * thread; coroutines already created keep theirs. Any thread.
     *
     * @param engine the new default
     * @throws NullPointerException if {@code engine} is null
     */
    public static void setDefault(Engine engine) {
        if (engine == null) {
            throw new NullPointerException("engine");
        }
        chosen = engine;
    }

    /**
     * The engine that {@code value}, a value of {@value #DEFAULT_PROPERTY}, names; for null,
     * {@link #NATIVE} where it runs (JDK 21+), else {@link #WOVEN}.
     */
    static Engine parse(String value) {
        if (value == null) {
            return Engines.nativeEngineRuns() ? NATIVE : WOVEN;
        }
        return switch (value.trim().toLowerCase(Locale.ROOT)) {
            case "native" -> NATIVE;
            case "woven" -> WOVEN;
            default -> throw new IllegalStateException("the system property " + DEFAULT_PROPERTY + " is '" + value
                    + "', which names no engine: use native or woven");
        };
    }

    /** The property's value and engine (null if it names none), read once, when first needed. */
    private static final class FromProperty {
        static final String VALUE = System.getProperty(DEFAULT_PROPERTY);
        static final Engine ENGINE = valueOrNull(VALUE);

        private static Engine valueOrNull(String value) {
            try {
                return parse(value);
            } catch (IllegalStateException e) {
                return null;
            }
        }
    }
}
