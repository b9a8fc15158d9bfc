package dev.weft.contract;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.weft.AsymCoroutine;
import dev.weft.AsymRunnable;
import dev.weft.Coroutine;
import dev.weft.CoroutineBase;
import dev.weft.Engine;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A coroutine's stack trace ({@link CoroutineBase#getStackTrace()}) and its state: the same
 * frames on both engines, named as the source names them, at the lines of the calls in progress,
 * which are found from marker comments in this file.
 */
abstract class DumpContract extends EngineContract {

    static final String FILE = "DumpContract.java";

    /** Rets from a helper two calls below its body: a stack of three frames. */
    static final class Deep extends AsymCoroutine<Integer, Integer> {
        Deep(Engine engine) {
            super(engine);
        }

        @Override
        protected Integer run(Integer first) {
            return outer(first) + 1; // line:deep-run
        }

        private int outer(int x) {
            return inner(x) * 2; // line:deep-outer
        }

        private int inner(int x) {
            return ret(x); // line:deep-inner
        }
    }

    /** Yields round the ring for ever. */
    static final class Spinner extends Coroutine {
        Spinner(Engine engine) {
            super(engine);
        }

        @Override
        public void run() {
            while (true) {
                Coroutine.yield(); // line:spinner-yield
            }
        }
    }

    /** An asymmetric body that passes out its own stack trace, read while it runs, and then rets once. */
    static final class Introspect implements AsymRunnable<Void, StackTraceElement[]> {
        @Override
        public StackTraceElement[] run(AsymCoroutine<? extends Void, ? super StackTraceElement[]> self, Void first) {
            StackTraceElement[] running = self.getStackTrace(); // line:introspect-read
            self.ret(running); // line:introspect-ret
            return null;
        }
    }

    /** What an element must say: the class, method, file and the line marked {@code marker}. */
    static String place(Class<?> type, String method, String marker) {
        return type.getName() + "." + method + "(" + FILE + ":" + SourceLines.lineOf(type, marker) + ")";
    }

    /** Each element as {@code class.method(file:line)}, without loader or module. */
    static List<String> places(StackTraceElement[] trace) {
        List<String> places = new ArrayList<>();
        for (StackTraceElement e : trace) {
            places.add(e.getClassName() + "." + e.getMethodName() + "(" + e.getFileName() + ":" + e.getLineNumber() + ")");
        }
        return places;
    }

    Deep suspendedDeep() {
        Deep co = new Deep(engine());
        assertEquals(3, co.call(3));
        return co;
    }

    @Test
    void aSuspendedCoroutineShowsItsFramesInnermostFirstAtTheLinesOfTheirCalls() {
        Deep co = suspendedDeep();
        assertEquals(List.of(place(Deep.class, "inner", "deep-inner"), place(Deep.class, "outer", "deep-outer"),
                place(Deep.class, "run", "deep-run")), places(co.getStackTrace()));
        assertSame(CoroutineBase.State.SUSPENDED, co.getState());
    }

    @Test
    void aSuspendedSymmetricCoroutineShowsTheFrameThatYielded() {
        Spinner co = new Spinner(engine());
        Coroutine.yield();
        assertEquals(List.of(place(Spinner.class, "run", "spinner-yield")), places(co.getStackTrace()));
        assertSame(CoroutineBase.State.SUSPENDED, co.getState());
    }

    @Test
    void readingTheStackLeavesTheCoroutineAsItWas() {
        Deep co = suspendedDeep();
        co.getStackTrace();
        assertEquals(11, co.call(5)); // inner returns 5, outer 10, run 11
        assertSame(CoroutineBase.State.FINISHED, co.getState());
    }

    @Test
    void aNewOrFinishedCoroutineHasNoFrames() {
        Deep co = new Deep(engine());
        assertArrayEquals(new StackTraceElement[0], co.getStackTrace());
        assertSame(CoroutineBase.State.NEW, co.getState());
        co.call(1);
        co.call(1);
        assertSame(CoroutineBase.State.FINISHED, co.getState());
        assertArrayEquals(new StackTraceElement[0], co.getStackTrace());
    }

    @Test
    void aRunningCoroutineShowsItsLiveFramesFromTheCaller() {
        AsymCoroutine<Void, StackTraceElement[]> co = new AsymCoroutine<>(new Introspect(), engine());
        StackTraceElement[] running = co.call(null);
        assertEquals(place(Introspect.class, "run", "introspect-read"), places(running).get(0));
        assertEquals(List.of(place(Introspect.class, "run", "introspect-ret")), places(co.getStackTrace()));
    }

    @Test
    void aClosedCoroutineIsFinishedWithNoFrames() {
        Spinner co = new Spinner(engine());
        Coroutine.yield();
        co.close();
        assertSame(CoroutineBase.State.FINISHED, co.getState());
        assertArrayEquals(new StackTraceElement[0], co.getStackTrace());
    }

    @Test
    void theStackOfASuspendedCoroutineIsReadFromAnotherThread() throws Exception {
        Deep co = suspendedDeep();
        StackTraceElement[][] read = new StackTraceElement[1][];
        Thread other = new Thread(() -> read[0] = co.getStackTrace());
        other.start();
        other.join();
        assertEquals(places(co.getStackTrace()), places(read[0]));
        assertEquals(3, read[0].length);
    }
}
