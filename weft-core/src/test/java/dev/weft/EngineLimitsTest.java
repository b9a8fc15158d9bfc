package dev.weft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.internal.woven.Fiber;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** What the engine cannot do becomes an exception in the right place, never a crash or a hang. */
class EngineLimitsTest {

    @AfterEach
    void closeLeftovers() {
        CoroutineBase.closeAll();
    }

    /** Its initializer runs under a VM frame, through which HotSpot cannot suspend. */
    static final class YieldsInItsInitializer {
        static final String REFUSAL;

        static {
            String refusal;
            try {
                Coroutine.yield();
                refusal = "suspended";
            } catch (IllegalStateException e) {
                refusal = e.getMessage();
            }
            REFUSAL = refusal;
        }
    }

    @Test
    void yieldThroughANativeFrameIsRefusedAndTheCoroutineStaysUsable() {
        Trace trace = new Trace();
        Coroutine co = new Coroutine(() -> {
            trace.add(YieldsInItsInitializer.REFUSAL);
            Coroutine.yield(); // outside the initializer it suspends as usual
            trace.add("resumed");
        });
        co.setName("in-clinit");
        Coroutine bystander = new Coroutine(() -> trace.add("bystander"));
        Coroutine.yieldTo(co);
        String refusal = trace.events().get(0);
        assertTrue(refusal.startsWith("in-clinit [running, thread ") && refusal.contains("cannot suspend")
                && refusal.contains("native"), refusal);
        Coroutine.yield(); // the refused switch left the ring as it was: bystander, then co
        assertEquals(List.of(refusal, "bystander", "resumed"), trace.events());
        assertTrue(co.isFinished() && bystander.isFinished());
    }

    /** The coroutine that initializes {@link RetsInItsInitializer}; a field of its own would initialize it. */
    static AsymCoroutine<Void, String> initializing;

    static final class RetsInItsInitializer {
        static final String REFUSAL;

        static {
            String refusal;
            try {
                initializing.ret("suspended");
                refusal = "suspended";
            } catch (IllegalStateException e) {
                refusal = e.getMessage();
            }
            REFUSAL = refusal;
        }
    }

    @Test
    @SuppressWarnings("unchecked") // the body's view of its coroutine, cast back to the type it was made with
    void retThroughANativeFrameIsRefusedAndTheCoroutineStaysUsable() {
        AsymCoroutine<Void, String> co = new AsymCoroutine<>((self, in) -> {
            initializing = (AsymCoroutine<Void, String>) self;
            String refusal = RetsInItsInitializer.REFUSAL;
            self.ret(refusal);
            return "finished";
        });
        co.setName("asym-in-clinit");
        String refusal = co.call(null);
        assertTrue(refusal.startsWith("asym-in-clinit [running, thread ") && refusal.contains("cannot suspend")
                && refusal.contains("native"), refusal);
        assertEquals("finished", co.call(null));
    }

    private static int recurseForever(int depth) {
        return recurseForever(depth + 1) + 1;
    }

    @Test
    void aStackOverflowInsideACoroutineComesOutOfCall() {
        AsymCoroutine<Void, Void> co = new AsymCoroutine<>((self, in) -> {
            recurseForever(0);
            return null;
        });
        assertThrows(StackOverflowError.class, () -> co.call(null));
        assertTrue(co.isFinished());
        AsymCoroutine<Integer, Integer> after = new AsymCoroutine<>((self, in) -> self.ret(in + 1));
        assertEquals(2, after.call(1)); // the thread goes on as before
    }

    @Test
    void aStackOverflowCaughtInsideACoroutineLeavesItAbleToSuspend() {
        AsymCoroutine<Void, String> co = new AsymCoroutine<>((self, in) -> {
            try {
                recurseForever(0);
            } catch (StackOverflowError e) {
                self.ret("recovered");
            }
            return "done";
        });
        assertEquals("recovered", co.call(null));
        assertEquals("done", co.call(null));
    }

    @Test
    void aStackOverflowInASymmetricCoroutineReachesItsSwitcher() {
        Coroutine co = new Coroutine(() -> recurseForever(0));
        assertThrows(StackOverflowError.class, () -> Coroutine.yieldTo(co));
        assertTrue(co.isFinished());
    }

    /** Fills a small heap with suspended coroutines until it runs out, then shows all is well. */
    public static final class CreatesUntilOutOfMemory {
        public static void main(String[] args) {
            List<AsymCoroutine<Void, Integer>> suspended = new ArrayList<>();
            String where = "nowhere";
            int count = 0;
            try {
                while (true) {
                    AsymCoroutine<Void, Integer> co = new AsymCoroutine<>((self, in) -> {
                        long[] ballast = new long[4096];
                        self.ret(ballast.length);
                        return ballast.length;
                    });
                    suspended.add(co);
                    co.call(null);
                    count++;
                }
            } catch (OutOfMemoryError e) {
                suspended.clear(); // first: the catch block itself needs some heap
                where = "caught";
            }
            int created = count;
            CoroutineBase.closeAll();
            AsymCoroutine<Integer, Integer> fresh = new AsymCoroutine<>((self, in) -> self.ret(in * 2));
            System.out.println(where + " after " + (created > 100) + ", fresh coroutine says " + fresh.call(21));
        }
    }

    @Test
    void runningOutOfMemoryWhileCreatingCoroutinesIsAnOrdinaryOutOfMemoryError() throws Exception {
        JavaProcess.Result result = JavaProcess.run(List.of(JavaProcess.ACCESS, "-Xmx64m"), CreatesUntilOutOfMemory.class);
        assertEquals(0, result.exitCode(), result.output());
        assertTrue(result.output().contains("caught after true, fresh coroutine says 42"), result.output());
    }

    /** Tries coroutine operations in a JVM that was not given access to jdk.internal.vm. */
    public static final class WithoutAccess {
        public static void main(String[] args) {
            for (Runnable op : List.<Runnable>of(() -> new Coroutine(() -> { }), () -> new AsymCoroutine<Void, Void>(),
                    () -> new AsymCoroutine<Void, Void>(Engine.NATIVE))) {
                try {
                    op.run();
                    System.out.println("no error");
                } catch (IllegalStateException e) {
                    System.out.println(e.getMessage());
                }
            }
            Coroutine.yield(); // nothing else in the ring: no engine is needed
            new HandWoven("first");
            new HandWoven("second");
            Coroutine.yield();
            System.out.println("woven coroutines ran: " + HandWoven.RAN);
        }
    }

    /**
     * A coroutine of the woven engine whose twin is written by hand, as the weaver would for a
     * {@code run} that never suspends (private, the engine reaching it through a lookup Weft
     * makes, the class registering none): what a program without access to jdk.internal.vm can run.
     */
    public static final class HandWoven extends Coroutine {
        static final List<String> RAN = new ArrayList<>();
        private final String label;

        HandWoven(String label) {
            super(Engine.WOVEN);
            this.label = label;
        }

        @Override
        protected void run() {
            RAN.add(label);
        }

        @SuppressWarnings("unused") // the woven engine's entry
        private void run$weft(Fiber fiber) {
            run();
        }
    }

    @Test
    void withoutAccessTheNativeEngineNamesTheOptionToAddAndTheWovenEngineRuns() throws Exception {
        JavaProcess.Result result = JavaProcess.run(List.of(), WithoutAccess.class);
        assertEquals(0, result.exitCode(), result.output());
        String[] lines = result.output().strip().split("\\R");
        assertEquals(4, lines.length, result.output());
        for (int i = 0; i < 3; i++) {
            assertTrue(lines[i].endsWith("start java with the option --add-exports java.base/jdk.internal.vm=ALL-UNNAMED"),
                    lines[i]);
        }
        assertEquals("woven coroutines ran: [second, first]", lines[3]);
    }

    @Test
    void stackSizeAndSharedStackAreHints() {
        Coroutine base = new Coroutine(() -> { }, 1);
        AsymCoroutine<Integer, Integer> deep = new AsymCoroutine<>((self, n) -> depth(n, self), base);
        assertEquals(-1, deep.call(5000)); // suspended 5000 frames deep: a tiny stackSize hint is no limit
        assertEquals(5000, deep.call(0));
        AsymCoroutine<Void, Void> large = new AsymCoroutine<>((self, in) -> null, 1L << 40);
        large.call(null);
        assertTrue(large.isFinished());
        assertInstanceOf(IllegalArgumentException.class,
                assertThrows(IllegalArgumentException.class, () -> new Coroutine(-1)));
        assertThrows(IllegalArgumentException.class, () -> new AsymCoroutine<Void, Void>(-5));
        assertFalse(base.isFinished());
        new AsymCoroutine<Void, Void>((self, in) -> null, (CoroutineBase) null).call(null);
    }

    private static int depth(int n, AsymCoroutine<? extends Integer, ? super Integer> self) {
        if (n == 0) {
            self.ret(-1);
            return 0;
        }
        return depth(n - 1, self) + 1;
    }
}
