package dev.weft.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.weft.AsymCoroutine;
import dev.weft.AsymRunnable;
import dev.weft.Coroutine;
import dev.weft.CoroutineBase;
import dev.weft.Engine;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The stack traces of exceptions thrown in coroutines (issue 33, point 1): {@code outer} calls
 * {@code middle}, which rets and is resumed, then calls {@code inner}, which throws; on the
 * woven engine only {@code middle} has been rebuilt by then. Caught outside the coroutine, or
 * inside it by a frame the exception reached through a saved one, the trace holds every frame
 * of the coroutine by its own name and the line marked in this file, then exactly one boundary
 * line, then the resumer's frames; never a twin's {@code $weft}.
 */
abstract class ThrownTraceContract extends EngineContract {

    static final String FILE = "ThrownTraceContract.java";
    static final String BOUNDARY = "dev.weft.<coroutine boundary>";

    /** The scenario as an asymmetric body: the body catches the exception if its first input is true. */
    static final class Scenario implements AsymRunnable<Object, Object> {
        boolean outerFinallyRan;

        @Override
        public Object run(AsymCoroutine<? extends Object, ? super Object> self, Object catchInBody) {
            if (catchInBody == Boolean.TRUE) {
                try {
                    outer(self); // line:body-call-caught
                } catch (IllegalStateException e) {
                    return e;
                }
            }
            outer(self); // line:body-call
            return null;
        }

        void outer(AsymCoroutine<? extends Object, ? super Object> self) {
            try {
                middle(self); // line:outer-call
            } finally {
                outerFinallyRan = true;
            }
        }

        void middle(AsymCoroutine<? extends Object, ? super Object> self) {
            self.ret(null); // line:middle-ret
            inner(); // line:middle-call
        }

        static void inner() {
            throw new IllegalStateException("thrown by inner", new IllegalArgumentException("its cause")); // line:inner-throw
        }
    }

    /** The same, symmetric: {@code middle} yields. */
    static final class SymmetricScenario extends Coroutine {
        SymmetricScenario(Engine engine) {
            super(engine);
        }

        @Override
        public void run() {
            outer(); // line:sym-run
        }

        void outer() {
            middle(); // line:sym-outer
        }

        void middle() {
            Coroutine.yield(); // line:sym-yield
            Scenario.inner(); // line:sym-middle
        }
    }

    /**
     * {@code middle} catches what {@code inner} throws, after a suspension that left {@code outer}
     * and the body saved on the woven engine; it returns the exception, or throws it again if
     * its resume's input is true.
     */
    static final class CatchingScenario implements AsymRunnable<Object, Object> {
        @Override
        public Object run(AsymCoroutine<? extends Object, ? super Object> self, Object first) {
            Object caught = outer(self); // line:catching-body-call
            return caught;
        }

        Object outer(AsymCoroutine<? extends Object, ? super Object> self) {
            Object caught = middle(self); // line:catching-outer-call
            return caught;
        }

        Object middle(AsymCoroutine<? extends Object, ? super Object> self) {
            Object again = self.ret(null);
            try {
                Scenario.inner(); // line:catching-middle-call
                return null;
            } catch (IllegalStateException e) {
                if (again == Boolean.TRUE) {
                    throw e;
                }
                return e;
            }
        }
    }

    /** Catches what {@code inner} throws in its first run, before any suspension. */
    static final class FirstRunCatch implements AsymRunnable<Object, Object> {
        @Override
        public Object run(AsymCoroutine<? extends Object, ? super Object> self, Object first) {
            try {
                Scenario.inner(); // line:first-run-call
                return null;
            } catch (IllegalStateException e) {
                return e;
            }
        }
    }

    /** The element {@code class.method(File.java:line)} of {@code type}'s line marked {@code marker}. */
    static String place(Class<?> type, String method, String marker) {
        return type.getName() + "." + method + "(" + FILE + ":" + SourceLines.lineOf(type, marker) + ")";
    }

    /** Each element as {@code class.method(file:line)}, without loader or module; the boundary as it prints. */
    static List<String> places(StackTraceElement[] trace) {
        List<String> places = new ArrayList<>();
        for (StackTraceElement e : trace) {
            places.add(e.getClassName() + "." + e.getMethodName() + "(" + e.getFileName()
                    + (e.getLineNumber() >= 0 ? ":" + e.getLineNumber() : "") + ")");
        }
        return places;
    }

    static List<String> scenarioFrames(String bodyMarker) {
        return List.of(place(Scenario.class, "inner", "inner-throw"), place(Scenario.class, "middle", "middle-call"),
                place(Scenario.class, "outer", "outer-call"), place(Scenario.class, "run", bodyMarker));
    }

    /** How many lines of {@code trace} are boundaries. */
    static long boundaries(StackTraceElement[] trace) {
        return places(trace).stream().filter(p -> p.startsWith(BOUNDARY + "(")).count();
    }

    /**
     * Asserts that {@code t}'s trace starts with {@code expected}, that it has {@code boundaries}
     * boundary lines, and that no element of it, nor of its causes', names a twin.
     */
    static void assertTrace(Throwable t, List<String> expected, long boundaries) {
        assertNotNull(t, "no exception");
        List<String> places = places(t.getStackTrace());
        assertEquals(expected, places.subList(0, Math.min(expected.size(), places.size())), () -> String.join("\n", places));
        assertEquals(boundaries, boundaries(t.getStackTrace()), () -> String.join("\n", places));
        assertNoTwins(t);
    }

    /** Asserts that no element of {@code t}'s trace, nor of its causes', names a twin. */
    static void assertNoTwins(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            List<String> places = places(c.getStackTrace());
            assertFalse(places.stream().anyMatch(p -> p.contains("$weft(")), () -> "a twin in " + places);
        }
    }

    /**
     * How many boundary lines an exception that the body catches shows, having never left the
     * coroutine's frames: on the woven engine it left {@code middle}, the one frame rebuilt,
     * into {@code outer}, which was still saved, and that is where its trace was completed.
     */
    abstract long boundariesWhenTheBodyCatches();

    /**
     * Whether an exception caught by a frame on the thread, having never left the coroutine's
     * frames, shows the boundary in place of the engine's frames: on the woven engine, whose
     * twins' handlers complete the trace; not on the native engine, whose frames run as
     * compiled, with no code of Weft's where they catch.
     */
    abstract boolean foldsTheEngineWhereTheCoroutineCatches();

    /**
     * Asserts that {@code caught}, caught inside a coroutine named {@code name} that
     * {@code resumer} resumed, shows {@code frames}, then the boundary and the resumer if the
     * engine folds there, else the engine's frames and then the resumer.
     */
    void assertCaughtInside(Throwable caught, List<String> frames, String name, String resumer) {
        List<String> expected = new ArrayList<>(frames);
        if (foldsTheEngineWhereTheCoroutineCatches()) {
            expected.add(BOUNDARY + "(" + name + ", resumed by the frame below)");
            expected.add(resumer);
            assertTrace(caught, expected, 1);
        } else {
            assertTrace(caught, expected, 0);
            List<String> places = places(caught.getStackTrace());
            int resumedAt = places.indexOf(resumer);
            List<String> between = places.subList(frames.size(), Math.max(frames.size(), resumedAt));
            assertTrue(resumedAt > frames.size() && between.stream().allMatch(p -> p.startsWith("dev.weft.")
                    || p.startsWith("jdk.internal.vm.")) && between.stream().anyMatch(p -> p.startsWith("jdk.internal.vm.Continuation.")),
                    () -> String.join("\n", places));
        }
    }

    /** Starts the scenario and runs it to its ret in {@code middle}. */
    AsymCoroutine<Object, Object> suspendedScenario(Scenario body, boolean catchInBody) {
        AsymCoroutine<Object, Object> co = new AsymCoroutine<>(body, engine());
        co.setName("scenario");
        assertEquals(null, co.call(catchInBody));
        return co;
    }

    @Test
    void anExceptionCaughtOutsideShowsEveryFrameOfTheCoroutineThenOneBoundaryThenTheResumer() {
        Scenario body = new Scenario();
        AsymCoroutine<Object, Object> co = suspendedScenario(body, false);
        IllegalStateException thrown = null;
        try {
            co.call(null); // line:resumer-call
        } catch (IllegalStateException e) {
            thrown = e;
        }
        assertTrue(body.outerFinallyRan);
        List<String> expected = new ArrayList<>(scenarioFrames("body-call"));
        expected.add(BOUNDARY + "(scenario, resumed by the frame below)");
        expected.add(place(ThrownTraceContract.class, "anExceptionCaughtOutsideShowsEveryFrameOfTheCoroutineThenOneBoundaryThenTheResumer",
                "resumer-call"));
        assertTrace(thrown, expected, 1);
    }

    @Test
    void theCauseIsCompletedToo() {
        AsymCoroutine<Object, Object> co = suspendedScenario(new Scenario(), false);
        try {
            co.call(null);
            fail("no exception");
        } catch (IllegalStateException e) {
            assertTrace(e.getCause(), scenarioFrames("body-call"), 1);
        }
    }

    @Test
    void anExceptionCaughtByTheBodyShowsEveryFrameOfTheCoroutine() {
        AsymCoroutine<Object, Object> co = suspendedScenario(new Scenario(), true);
        IllegalStateException caught = (IllegalStateException) co.call(null);
        assertTrace(caught, scenarioFrames("body-call-caught"), boundariesWhenTheBodyCatches());
    }

    @Test
    void anExceptionCaughtInAFrameRebuiltAfterASuspensionShowsTheFramesStillSaved() {
        AsymCoroutine<Object, Object> co = new AsymCoroutine<>(new CatchingScenario(), engine());
        co.setName("catching");
        assertEquals(null, co.call(null));
        Throwable caught = (Throwable) co.call(false); // line:catching-resumer
        assertCaughtInside(caught, catchingFrames(), "catching", place(ThrownTraceContract.class,
                "anExceptionCaughtInAFrameRebuiltAfterASuspensionShowsTheFramesStillSaved", "catching-resumer"));
        assertTrace(caught.getCause(), catchingFrames(), foldsTheEngineWhereTheCoroutineCatches() ? 1 : 0);
    }

    @Test
    void anExceptionCaughtAndThrownOnThroughTheSavedFramesShowsThemOnce() {
        AsymCoroutine<Object, Object> co = new AsymCoroutine<>(new CatchingScenario(), engine());
        co.setName("rethrowing");
        assertEquals(null, co.call(null));
        IllegalStateException thrown = null;
        try {
            co.call(true); // line:rethrowing-resumer
        } catch (IllegalStateException e) {
            thrown = e;
        }
        List<String> expected = new ArrayList<>(catchingFrames());
        expected.add(BOUNDARY + "(rethrowing, resumed by the frame below)");
        expected.add(place(ThrownTraceContract.class, "anExceptionCaughtAndThrownOnThroughTheSavedFramesShowsThemOnce",
                "rethrowing-resumer"));
        assertTrace(thrown, expected, 1);
    }

    static List<String> catchingFrames() {
        return List.of(place(Scenario.class, "inner", "inner-throw"),
                place(CatchingScenario.class, "middle", "catching-middle-call"),
                place(CatchingScenario.class, "outer", "catching-outer-call"),
                place(CatchingScenario.class, "run", "catching-body-call"));
    }

    @Test
    void anExceptionCaughtInTheFirstRunShowsTheBodyThenTheBoundary() {
        AsymCoroutine<Object, Object> co = new AsymCoroutine<>(new FirstRunCatch(), engine());
        co.setName("first");
        Throwable caught = (Throwable) co.call(null); // line:first-run-resumer
        assertCaughtInside(caught, List.of(place(Scenario.class, "inner", "inner-throw"),
                place(FirstRunCatch.class, "run", "first-run-call")), "first", place(ThrownTraceContract.class,
                "anExceptionCaughtInTheFirstRunShowsTheBodyThenTheBoundary", "first-run-resumer"));
    }

    @Test
    void anExceptionCaughtByTheCallerOfANestedCoroutineShowsBothCoroutines() {
        AsymCoroutine<Object, Object> inner = suspendedScenario(new Scenario(), false);
        AsymCoroutine<Object, Object> caller = new AsymCoroutine<>(new CatchingCaller(inner), engine());
        caller.setName("caller");
        Throwable caught = (Throwable) caller.call(null); // line:catching-caller-resumer
        List<String> frames = new ArrayList<>(scenarioFrames("body-call"));
        frames.add(BOUNDARY + "(scenario, resumed by the frame below)");
        frames.add(place(CatchingCaller.class, "run", "catching-caller-call"));
        List<String> places = places(caught.getStackTrace());
        assertEquals(frames, places.subList(0, Math.min(frames.size(), places.size())), () -> String.join("\n", places));
        String resumer = place(ThrownTraceContract.class, "anExceptionCaughtByTheCallerOfANestedCoroutineShowsBothCoroutines",
                "catching-caller-resumer");
        if (foldsTheEngineWhereTheCoroutineCatches()) {
            assertEquals(List.of(BOUNDARY + "(caller, resumed by the frame below)", resumer),
                    places.subList(frames.size(), Math.min(frames.size() + 2, places.size())), () -> String.join("\n", places));
            assertEquals(2, boundaries(caught.getStackTrace()));
        } else {
            assertEquals(1, boundaries(caught.getStackTrace()));
            assertTrue(places.indexOf(resumer) > frames.size(), () -> String.join("\n", places));
        }
        assertNoTwins(caught);
    }

    /** Calls the coroutine it is given, which throws, and returns what it threw. */
    static final class CatchingCaller implements AsymRunnable<Object, Object> {
        private final AsymCoroutine<Object, Object> callee;

        CatchingCaller(AsymCoroutine<Object, Object> callee) {
            this.callee = callee;
        }

        @Override
        public Object run(AsymCoroutine<? extends Object, ? super Object> self, Object first) {
            try {
                return callee.call(null); // line:catching-caller-call
            } catch (IllegalStateException e) {
                return e;
            }
        }
    }

    @Test
    void aSymmetricCoroutinesExceptionShowsItsFramesThenTheSwitchThatResumedIt() {
        SymmetricScenario co = new SymmetricScenario(engine());
        co.setName("symmetric");
        Coroutine.yieldTo(co); // to its yield in middle, which comes back here
        IllegalStateException thrown = null;
        try {
            Coroutine.yieldTo(co); // line:sym-resumer
        } catch (IllegalStateException e) {
            thrown = e;
        }
        List<String> expected = List.of(place(Scenario.class, "inner", "inner-throw"),
                place(SymmetricScenario.class, "middle", "sym-middle"), place(SymmetricScenario.class, "outer", "sym-outer"),
                place(SymmetricScenario.class, "run", "sym-run"), BOUNDARY + "(symmetric, resumed by the frame below)",
                place(ThrownTraceContract.class, "aSymmetricCoroutinesExceptionShowsItsFramesThenTheSwitchThatResumedIt",
                        "sym-resumer"));
        assertTrace(thrown, expected, 1);
    }

    @Test
    void aCoroutineStolenByAnotherThreadThrowsThereWithTheSameFrames() throws Throwable {
        AsymCoroutine<Object, Object> co = suspendedScenario(new Scenario(), false);
        Throwable thrown = OtherThread.call("thief", () -> {
            assertTrue(co.steal());
            try {
                co.call(null);
                return null;
            } catch (IllegalStateException e) {
                return e;
            }
        });
        List<String> expected = new ArrayList<>(scenarioFrames("body-call"));
        expected.add(BOUNDARY + "(scenario, resumed by the frame below)");
        assertTrace(thrown, expected, 1);
        List<String> places = places(thrown.getStackTrace());
        assertTrue(places.get(expected.size()).startsWith(ThrownTraceContract.class.getName() + ".lambda$"), places::toString);
    }

    @Test
    void anExceptionFromANestedCoroutineShowsBothCoroutinesEachWithItsBoundary() {
        AsymCoroutine<Object, Object> inner = suspendedScenario(new Scenario(), false);
        AsymCoroutine<Object, Object> caller = new AsymCoroutine<>(new Caller(inner), engine());
        caller.setName("caller");
        IllegalStateException thrown = null;
        try {
            caller.call(null); // line:nested-resumer
        } catch (IllegalStateException e) {
            thrown = e;
        }
        List<String> expected = new ArrayList<>(scenarioFrames("body-call"));
        expected.add(BOUNDARY + "(scenario, resumed by the frame below)");
        expected.add(place(Caller.class, "run", "caller-call"));
        expected.add(BOUNDARY + "(caller, resumed by the frame below)");
        expected.add(place(ThrownTraceContract.class, "anExceptionFromANestedCoroutineShowsBothCoroutinesEachWithItsBoundary",
                "nested-resumer"));
        assertTrace(thrown, expected, 2);
    }

    /** Calls the coroutine it is given, which throws. */
    static final class Caller implements AsymRunnable<Object, Object> {
        private final AsymCoroutine<Object, Object> callee;

        Caller(AsymCoroutine<Object, Object> callee) {
            this.callee = callee;
        }

        @Override
        public Object run(AsymCoroutine<? extends Object, ? super Object> self, Object first) {
            return callee.call(null); // line:caller-call
        }
    }

    // ------------------------------------------------ exceptions created in one resume, thrown in a later one

    /**
     * {@code outer} calls {@code middle}, which makes an exception, rets, and on its resume does
     * with it what the first input said: throws it ({@code "throw"}), throws and catches it
     * ({@code "catch"}), or returns it to {@code outer}, which throws it ({@code "return"}); or
     * makes it only after the ret and returns it ({@code "made after"}), or makes it after the
     * ret, rets again and throws it then ({@code "kept"}), or returns it, made after the ret,
     * for the body to keep over one more ret and throw ({@code "body keeps"}).
     */
    static final class MadeEarlier implements AsymRunnable<Object, Object> {
        @Override
        public Object run(AsymCoroutine<? extends Object, ? super Object> self, Object how) {
            Object result = outer(self, (String) how); // line:early-body-call
            if (how.equals("body keeps")) {
                self.ret(null);
                throw (IllegalStateException) result;
            }
            return result;
        }

        Object outer(AsymCoroutine<? extends Object, ? super Object> self, String how) {
            Object made = middle(self, how); // line:early-outer-call
            if (how.equals("made after")) {
                throw (IllegalStateException) made;
            }
            return made;
        }

        Object middle(AsymCoroutine<? extends Object, ? super Object> self, String how) {
            IllegalStateException early = new IllegalStateException("made before the ret"); // line:early-made
            self.ret(null);
            IllegalStateException late = new IllegalStateException("made after the ret"); // line:late-made
            switch (how) {
                case "throw" -> throw early;
                case "catch" -> {
                    try {
                        throw early;
                    } catch (IllegalStateException e) {
                        return e;
                    }
                }
                case "kept" -> {
                    self.ret(null);
                    throw late;
                }
                case "made after", "body keeps" -> {
                    return late;
                }
                default -> throw new AssertionError(how);
            }
        }
    }

    /** The frames of {@link MadeEarlier} when its {@code middle} made the exception at {@code madeAt}. */
    static List<String> madeEarlierFrames(String madeAt) {
        return List.of(place(MadeEarlier.class, "middle", madeAt), place(MadeEarlier.class, "outer", "early-outer-call"),
                place(MadeEarlier.class, "run", "early-body-call"));
    }

    /** Calls a new {@link MadeEarlier} named {@code name} with {@code how}, to its first ret. */
    AsymCoroutine<Object, Object> madeEarlier(String name, String how) {
        AsymCoroutine<Object, Object> co = new AsymCoroutine<>(new MadeEarlier(), engine());
        co.setName(name);
        assertEquals(null, co.call(how)); // line:early-first-call
        return co;
    }

    /** What {@code co.call(null)} throws. */
    static Throwable thrownBy(AsymCoroutine<Object, Object> co) {
        try {
            co.call(null); // line:early-later-call
        } catch (IllegalStateException e) {
            return e;
        }
        throw new AssertionError("no exception");
    }

    /** {@code frames}, the boundary of {@code name} with {@code note}, then {@code resumer}. */
    static List<String> thenBoundary(List<String> frames, String name, String note, String resumer) {
        List<String> expected = new ArrayList<>(frames);
        expected.add(BOUNDARY + "(" + name + note + ")");
        expected.add(resumer);
        return expected;
    }

    static final String FIRST_CALL = place(ThrownTraceContract.class, "madeEarlier", "early-first-call");
    static final String LATER_CALL = place(ThrownTraceContract.class, "thrownBy", "early-later-call");

    static final String RESUMED = ", resumed by the frame below";

    @Test
    void anExceptionMadeBeforeASuspensionAndThrownAfterItShowsTheStackItWasMadeOn() {
        Throwable thrown = thrownBy(madeEarlier("early", "throw"));
        assertTrace(thrown, thenBoundary(madeEarlierFrames("early-made"), "early", RESUMED, FIRST_CALL), 1);
    }

    @Test
    void anExceptionMadeBeforeASuspensionAndCaughtAfterItShowsTheStackItWasMadeOn() {
        AsymCoroutine<Object, Object> co = madeEarlier("caught early", "catch");
        Throwable caught = (Throwable) co.call(null);
        assertTrace(caught, thenBoundary(madeEarlierFrames("early-made"), "caught early", RESUMED, FIRST_CALL), 1);
    }

    @Test
    void anExceptionMadeInAFrameRebuiltAfterASuspensionAndThrownByItsCallerShowsItsCallers() {
        Throwable thrown = thrownBy(madeEarlier("made after", "made after"));
        assertTrace(thrown, thenBoundary(madeEarlierFrames("late-made"), "made after", RESUMED, LATER_CALL), 1);
    }

    @Test
    void anExceptionMadeInARebuiltFrameAndThrownAfterItsNextSuspensionShowsItsCallers() {
        AsymCoroutine<Object, Object> co = madeEarlier("kept", "kept");
        assertEquals(null, co.call(null)); // line:kept-second-call
        Throwable thrown = thrownBy(co);
        assertTrace(thrown, thenBoundary(madeEarlierFrames("late-made"), "kept", RESUMED, place(ThrownTraceContract.class,
                "anExceptionMadeInARebuiltFrameAndThrownAfterItsNextSuspensionShowsItsCallers", "kept-second-call")), 1);
    }

    @Test
    void anExceptionMadeInARestoredFrameAndThrownByItsCallerShowsItsCallers() {
        AsymCoroutine<Object, Object> original = madeEarlier("original", "made after");
        AsymCoroutine<Object, Object> copy = new AsymCoroutine<>(new MadeEarlier(), engine());
        copy.setName("copy");
        copy.deserialize(SerializationContract.rehome(original.serialize(), original, copy));
        Throwable thrown = thrownBy(copy);
        assertTrace(thrown, thenBoundary(madeEarlierFrames("late-made"), "copy", RESUMED, LATER_CALL), 1);
    }

    /**
     * {@code middle} made the exception in a frame the woven engine rebuilt in an earlier resume,
     * and the frames saved then have been rebuilt and saved again since: the native engine,
     * whose frames were all on the continuation when it was made, shows them; the woven engine
     * shows the frame that made it and says, in its boundary, that it does not know the rest.
     */
    @Test
    void anExceptionWhoseFramesAreNoLongerKnownSaysSoInItsBoundary() {
        AsymCoroutine<Object, Object> co = madeEarlier("body keeps", "body keeps");
        assertEquals(null, co.call(null)); // line:body-keeps-second-call
        Throwable thrown = thrownBy(co);
        String resumer = place(ThrownTraceContract.class, "anExceptionWhoseFramesAreNoLongerKnownSaysSoInItsBoundary",
                "body-keeps-second-call");
        if (engine() == Engine.WOVEN) {
            assertTrace(thrown, thenBoundary(List.of(place(MadeEarlier.class, "middle", "late-made")), "body keeps",
                    RESUMED + "; the frames saved then are unknown", resumer), 1);
        } else {
            assertTrace(thrown, thenBoundary(madeEarlierFrames("late-made"), "body keeps", RESUMED, resumer), 1);
        }
    }

    /**
     * {@code run} calls {@code a}, which calls {@code b}, which rets; resumed, {@code b} returns
     * and {@code a} calls {@code c}, which rets; resumed, {@code c} makes an exception and calls
     * {@code d}, which rets; resumed, {@code d} returns, {@code c} returns the exception and
     * {@code a} throws it. The woven engine saves its frames in three segments, and this resume
     * drops the two upper ones before the exception leaves.
     */
    static final class ThreeSegments implements AsymRunnable<Object, Object> {
        @Override
        public Object run(AsymCoroutine<? extends Object, ? super Object> self, Object first) {
            a(self); // line:three-body-call
            return null;
        }

        void a(AsymCoroutine<? extends Object, ? super Object> self) {
            b(self);
            IllegalStateException made = c(self); // line:three-a-call
            throw made;
        }

        void b(AsymCoroutine<? extends Object, ? super Object> self) {
            self.ret(null);
        }

        IllegalStateException c(AsymCoroutine<? extends Object, ? super Object> self) {
            self.ret(null);
            IllegalStateException made = new IllegalStateException("made in c"); // line:three-made
            d(self);
            return made;
        }

        void d(AsymCoroutine<? extends Object, ? super Object> self) {
            self.ret(null);
        }
    }

    @Test
    void anExceptionMadeInAFrameOfASegmentThatTheResumeDroppedShowsItsCallers() {
        AsymCoroutine<Object, Object> co = new AsymCoroutine<>(new ThreeSegments(), engine());
        co.setName("three");
        assertEquals(null, co.call(null));
        assertEquals(null, co.call(null));
        assertEquals(null, co.call(null)); // line:three-making-call
        Throwable thrown = thrownBy(co);
        assertTrace(thrown, thenBoundary(List.of(place(ThreeSegments.class, "c", "three-made"),
                place(ThreeSegments.class, "a", "three-a-call"), place(ThreeSegments.class, "run", "three-body-call")),
                "three", RESUMED, place(ThrownTraceContract.class,
                        "anExceptionMadeInAFrameOfASegmentThatTheResumeDroppedShowsItsCallers", "three-making-call")), 1);
    }

    @Test
    void anExceptionThatIsNotWritableIsLeftAsItIs() {
        AsymCoroutine<Object, Object> co = new AsymCoroutine<>(new Traceless(), engine());
        try {
            co.call(null);
            fail("no exception");
        } catch (IllegalStateException e) {
            assertEquals(0, e.getStackTrace().length);
        }
    }

    /** Throws an exception whose stack trace is not writable. */
    static final class Traceless implements AsymRunnable<Object, Object> {
        @Override
        public Object run(AsymCoroutine<? extends Object, ? super Object> self, Object first) {
            throw new Untraced();
        }
    }

    static final class Untraced extends IllegalStateException {
        Untraced() {
            super("no trace", null);
        }

        @Override
        public synchronized Throwable fillInStackTrace() {
            return this;
        }
    }

    @Test
    void theRawPropertyKeepsTheTracesAsTheJvmFilledThem() throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-D" + CoroutineBase.RAW_STACK_TRACES_PROPERTY + "=true", "-cp", System.getProperty("java.class.path")));
        String modulePath = System.getProperty("jdk.module.path");
        if (modulePath != null) { // the suites' run on the module path: weft-core is there
            command.addAll(List.of("--module-path", modulePath, "--add-modules", "dev.weft",
                    "--add-exports", "java.base/jdk.internal.vm=dev.weft"));
        } else {
            command.addAll(List.of("--add-exports", "java.base/jdk.internal.vm=ALL-UNNAMED"));
        }
        command.addAll(List.of(ThrownTraceMain.class.getName(), engine().name()));
        Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(child.waitFor(60, TimeUnit.SECONDS), "the child JVM did not end");
        assertEquals(0, child.exitValue(), output);
        assertFalse(output.contains(BOUNDARY), output);
        assertTrue(output.contains("dev.weft.AsymCoroutine.call("), output); // after the module's name on the module path
        assertTrue(output.contains(engine() == Engine.WOVEN ? "middle$weft(" : "jdk.internal.vm.Continuation"), output);
    }
}
