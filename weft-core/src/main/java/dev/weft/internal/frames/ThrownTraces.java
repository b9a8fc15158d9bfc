package dev.weft.internal.frames;

import dev.weft.CoroutineBase;
import dev.weft.internal.contract.WeavingContract;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Collections;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.Set;

/**
 * Completes the stack trace of an exception as it leaves a coroutine's frames for its engine,
 * so that it reads as the same code's trace reads on a thread: the coroutine's frames from the
 * throw out to its body, by the names its source gives them, then one line that marks where the
 * coroutine was resumed, {@link #boundary}, then the frames of the code that resumed it. An
 * engine calls {@link #crossed} in the handler that catches what its coroutine's frames throw,
 * and nowhere else, so that a coroutine that throws nothing pays nothing.
 *
 * <p>What a trace shows there, on the thread's stack, is: the frames that ran, then the
 * engine's frames (the scheduler's, the engine's own, HotSpot's continuations'), among them the
 * handler's, then the resumer's. The rewriting, in the trace of the exception and of each
 * exception in its causes and suppressed ones (each once):
 * <ol>
 *   <li>finds the innermost element of the handler's method, the <em>anchor</em>; a trace without
 *       one (filled elsewhere, cut short as a {@code StackOverflowError}'s is, or not kept at all,
 *       {@code -XX:-StackTraceInThrowable} or a throwable whose trace is not writable) is left as it is;</li>
 *   <li>takes the run of engine frames around the anchor, from the coroutine's outermost frame that ran
 *       down to the resumer's innermost (if no frame of the coroutine ran, the run starts at the
 *       anchor: what is above it threw);</li>
 *   <li>puts in its place the frames the woven engine kept saved when the trace was filled, which
 *       are the rest of the coroutine's stack then (none on the native engine, whose frames are
 *       all on the thread), and the boundary; an exception made in an earlier resume than the one
 *       it is thrown in was made on the stack of that resume, which the engine finds by the
 *       outermost element of the coroutine above the run ({@link SavedFrames}), or, where it no
 *       longer knows those frames, the boundary alone, saying so ({@value #UNKNOWN_NOTE});</li>
 *   <li>names each woven twin's frame above it ({@code name$weft}) by its method's name.</li>
 * </ol>
 * A trace rewritten once has no anchor left for the same crossing: an exception that goes on
 * through the saved frames, or is caught and thrown again, is rewritten at the next coroutine
 * out that it leaves, if any.
 *
 * <p>An exception that never leaves the frames on the thread, caught by a woven twin, is
 * rewritten where it is caught: twins call {@link #caught} (through their fiber) at the start of
 * each of their exception handlers, naming themselves. There the anchor is the run of engine
 * frames first below the catching twin's innermost element, the run its coroutine was resumed
 * through; a trace without that element (rewritten already: twins are named by their methods
 * then) is left as it is. Nothing here throws: a trace that cannot be read or rewritten is left
 * as it was.
 *
 * <p>The system property {@value CoroutineBase#RAW_STACK_TRACES_PROPERTY}{@code =true}, read
 * once, turns all of it off. Stateless; any thread.
 */
public final class ThrownTraces {

    /** Whether exceptions keep the traces the JVM gave them. */
    private static final boolean RAW = Boolean.getBoolean(CoroutineBase.RAW_STACK_TRACES_PROPERTY);

    /** The boundary line's class and method: {@code at dev.weft.<coroutine boundary>(NAME, resumed by the frame below)}. */
    public static final String BOUNDARY_CLASS = "dev.weft";
    public static final String BOUNDARY_METHOD = "<coroutine boundary>";
    private static final String BOUNDARY_NOTE = ", resumed by the frame below";
    /** Added to the boundary's note when the frames saved where the trace was filled are not known. */
    public static final String UNKNOWN_NOTE = "; the frames saved then are unknown";

    /** The JDK's built-in loaders' names, which its own elements leave out when they print. */
    private static final Set<String> BUILT_IN_LOADERS = Set.of("app", "platform");

    private ThrownTraces() {
    }

    /**
     * Rewrites the traces of {@code thrown} and of the exceptions it holds, which left
     * {@code coroutine}'s frames into the handler of {@code anchorClass}'s method
     * {@code anchorMethod}, as the class javadoc says.
     *
     * @param saved the frames saved below the ones that ran; read only if a trace is rewritten;
     *        null if the engine saves none
     */
    public static void crossed(Throwable thrown, CoroutineBase coroutine, Class<?> anchorClass, String anchorMethod,
            SavedFrames saved) {
        if (!RAW) {
            rewriteAll(thrown, new Rewrite(coroutine, new Handler(anchorClass.getName(), anchorMethod), saved));
        }
    }

    /**
     * Rewrites the traces of {@code thrown} and of the exceptions it holds, caught on the thread
     * by the twin {@code twin} ({@code pkg.Owner.name$weft}) of {@code coroutine}, as the class
     * javadoc says.
     *
     * @param saved the frames of {@code coroutine} saved below the ones that ran; read only if a
     *        trace is rewritten
     * @return whether the trace of {@code thrown} itself was rewritten (not raw, and it had the
     *         engine's frames below that twin)
     */
    public static boolean caught(Throwable thrown, CoroutineBase coroutine, String twin, SavedFrames saved) {
        return !RAW && rewriteAll(thrown, new Rewrite(coroutine, new BelowTwin(twin), saved));
    }

    /** Rewrites the traces of {@code thrown} and the exceptions it holds; whether that of {@code thrown} itself was. */
    private static boolean rewriteAll(Throwable thrown, Rewrite rewrite) {
        boolean rewritten = false;
        try {
            Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
            Deque<Throwable> next = new ArrayDeque<>();
            next.push(thrown);
            while (!next.isEmpty()) {
                Throwable t = next.pop();
                if (seen.add(t)) {
                    rewritten |= rewrite.of(t) && t == thrown;
                    if (t.getCause() != null) {
                        next.push(t.getCause());
                    }
                    for (Throwable s : t.getSuppressed()) {
                        next.push(s);
                    }
                }
            }
        } catch (Throwable left) { // StackOverflowError, OutOfMemoryError, a twin's handle unreadable: the trace as it was
            // nothing: the exception goes on with the trace it has
        }
        return rewritten;
    }

    /** Whether {@code e} is the boundary line that {@link #crossed} puts in. */
    public static boolean isBoundary(StackTraceElement e) {
        return BOUNDARY_CLASS.equals(e.getClassName()) && BOUNDARY_METHOD.equals(e.getMethodName());
    }

    /** Where, in a trace, the run of engine frames is that a rewrite replaces. */
    private interface EngineRun {
        /** The run's first index and the index after its last, or null if {@code trace} has none to rewrite. */
        int[] in(StackTraceElement[] trace);
    }

    /**
     * The run around the innermost element of the handler's method {@code method} of
     * {@code type}: from the coroutine's outermost frame that ran down to the resumer's innermost
     * one (from the handler, if no frame of the coroutine ran: the engine threw at its suspension point).
     */
    private record Handler(String type, String method) implements EngineRun {
        @Override
        public int[] in(StackTraceElement[] trace) {
            int anchor = -1;
            for (int i = 0; i < trace.length && anchor < 0; i++) {
                if (trace[i].getMethodName().equals(method) && trace[i].getClassName().equals(type)) {
                    anchor = i;
                }
            }
            if (anchor < 0) {
                return null;
            }
            int start = anchor;
            while (start > 0 && isEngine(trace[start - 1])) {
                start--;
            }
            return new int[] {start == 0 ? anchor : start, endOfRun(trace, anchor + 1)};
        }
    }

    /**
     * The first run of engine frames below the innermost element of {@code twin}
     * ({@code pkg.Owner.name$weft}), if the trace has one: the run its coroutine was resumed
     * through.
     */
    private record BelowTwin(String twin) implements EngineRun {
        @Override
        public int[] in(StackTraceElement[] trace) {
            int at = 0;
            while (at < trace.length && !names(trace[at])) {
                at++;
            }
            int start = at + 1;
            while (start < trace.length && !isEngine(trace[start])) {
                start++;
            }
            return start >= trace.length ? null : new int[] {start, endOfRun(trace, start)};
        }

        private boolean names(StackTraceElement e) {
            String type = e.getClassName();
            String method = e.getMethodName();
            return twin.length() == type.length() + 1 + method.length() && twin.startsWith(type)
                    && twin.charAt(type.length()) == '.' && twin.endsWith(method);
        }
    }

    /** The index after the run of engine frames that starts at {@code from}. */
    private static int endOfRun(StackTraceElement[] trace, int from) {
        int end = from;
        while (end < trace.length && isEngine(trace[end])) {
            end++;
        }
        return end;
    }

    /** One rewrite: the run of engine frames it replaces and what it puts in their place. */
    private static final class Rewrite {

        private final CoroutineBase coroutine;
        private final EngineRun run;
        private final SavedFrames saved;

        Rewrite(CoroutineBase coroutine, EngineRun run, SavedFrames saved) {
            this.coroutine = coroutine;
            this.run = run;
            this.saved = saved;
        }

        /** Rewrites the trace of {@code t}; whether it had a run of engine frames to replace. */
        boolean of(Throwable t) {
            StackTraceElement[] trace = t.getStackTrace();
            int[] replaced = run.in(trace);
            if (replaced == null) {
                return false;
            }
            int start = replaced[0];
            int end = replaced[1];
            StackTraceElement[] middle = inserted(trace, start, end);
            StackTraceElement[] rewritten = Arrays.copyOf(trace, start + middle.length + trace.length - end);
            for (int i = 0; i < start; i++) {
                rewritten[i] = named(trace[i]);
            }
            System.arraycopy(middle, 0, rewritten, start, middle.length);
            System.arraycopy(trace, end, rewritten, start + middle.length, trace.length - end);
            t.setStackTrace(rewritten);
            return true;
        }

        /** What replaces the run {@code trace[start, end)}: the frames saved when it was filled, and the boundary. */
        private StackTraceElement[] inserted(StackTraceElement[] trace, int start, int end) {
            StackTraceElement outermost = start > 0 && !isEngine(trace[start - 1]) ? trace[start - 1] : null;
            StackTraceElement[] frames = saved == null ? StackTraces.none()
                    : saved.savedWhenFilled(outermost, Arrays.asList(trace).subList(start, end));
            String note = coroutine.getName() + BOUNDARY_NOTE + (frames == null ? UNKNOWN_NOTE : "");
            StackTraceElement[] inserted = frames == null ? new StackTraceElement[1] : Arrays.copyOf(frames, frames.length + 1);
            inserted[inserted.length - 1] = new StackTraceElement(BOUNDARY_CLASS, BOUNDARY_METHOD, note, -1);
            return inserted;
        }
    }

    /** Whether {@code e} is a frame of Weft's scheduler or engines, or of HotSpot's continuations. */
    private static boolean isEngine(StackTraceElement e) {
        return StackTraces.isSchedulerClass(e.getClassName());
    }

    /** {@code e}, or, if it is a woven twin's frame, the same under its method's name. */
    private static StackTraceElement named(StackTraceElement e) {
        String name = e.getMethodName();
        if (!name.endsWith(WeavingContract.TWIN_SUFFIX)) {
            return e;
        }
        String loader = e.getClassLoaderName();
        return new StackTraceElement(loader == null || BUILT_IN_LOADERS.contains(loader) ? null : loader,
                e.getModuleName(), e.getModuleVersion(), e.getClassName(),
                name.substring(0, name.length() - WeavingContract.TWIN_SUFFIX.length()), e.getFileName(), e.getLineNumber());
    }
}
