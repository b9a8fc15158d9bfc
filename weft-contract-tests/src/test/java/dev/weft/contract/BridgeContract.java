package dev.weft.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.AsymCoroutine;
import dev.weft.CoroutineFrame;
import dev.weft.Engine;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Bridge methods (javac's, for a generic {@code run(Integer)} and for a covariant return, in a
 * class and as an interface's default method): a coroutine runs through them as through any
 * call, exceptions included, and a frame list never holds a frame of one, on either engine, so
 * that the same saved state reads the same and moves between the engines. The outermost frame
 * of a body entered through its {@code run(Object)} bridge is the real {@code run}.
 */
abstract class BridgeContract extends EngineContract {

    // ------------------------------------------------------------ bodies

    /**
     * A generic body: javac adds the bridge {@code run(Object)}, which casts and calls
     * {@code run(Integer)}. Adds up what it is given; an input below zero makes {@code step}
     * throw, which {@code run(Integer)}'s handler counts; a zero ends it by an exception out of
     * the body, through the bridge.
     */
    static final class Summing extends AsymCoroutine<Integer, Integer> {
        final List<String> finallies = new ArrayList<>();

        Summing(Engine engine) {
            super(engine);
        }

        @Override
        protected Integer run(Integer first) {
            int total = 0;
            int refused = 0;
            int in = first;
            try {
                while (true) {
                    if (in == 0) {
                        throw new ArithmeticException("zero after " + total + ", " + refused + " refused");
                    }
                    total += in;
                    try {
                        in = step(total);
                    } catch (IllegalArgumentException e) {
                        refused++;
                        in = ret(-refused);
                    }
                    if (in == 100) {
                        return total;
                    }
                }
            } finally {
                finallies.add("run(Integer) at " + total);
            }
        }

        private int step(int total) {
            int next = ret(total);
            if (next < 0) {
                throw new IllegalArgumentException("negative: " + next);
            }
            return next;
        }
    }

    /** A covariant return: {@code run(Object)} returns a {@code String}, and javac adds the bridge {@code Object run(Object)}. */
    static final class Naming extends AsymCoroutine<Object, CharSequence> {
        Naming(Engine engine) {
            super(engine);
        }

        @Override
        protected String run(Object first) {
            String name = String.valueOf(first);
            for (int i = 0; i < 2; i++) {
                name = name + ret(name);
            }
            return name + ".";
        }
    }

    /** What a {@link Reading} body reads: its {@code next} takes and returns a {@code T}, erased to {@code Object}. */
    interface Source<T> {
        T next(T last, AsymCoroutine<? super T, ? super T> self);
    }

    /**
     * A source whose default {@code next} takes and returns a {@code String}: javac adds to this
     * interface the default bridge {@code Object next(Object, AsymCoroutine)}, which casts its
     * first argument and calls it. It passes the last word out with {@code ret} and takes the
     * next, which it refuses if empty.
     */
    interface Words extends Source<String> {
        @Override
        default String next(String last, AsymCoroutine<? super String, ? super String> self) {
            String in = (String) self.ret(last);
            if (in.isEmpty()) {
                throw new IllegalArgumentException("an empty word after " + last);
            }
            return in;
        }
    }

    /** The {@link Words} that keep nothing: each call passes what it needs. */
    static final class Echo implements Words {
    }

    /**
     * Reads through the interface {@link Source}, whose call reaches {@link Words}'s bridge and
     * then its real {@code next}: joins what it reads, and counts the empty words refused, which
     * {@code next} throws into its handler here.
     */
    static final class Reading extends AsymCoroutine<String, String> {
        Reading(Engine engine) {
            super(engine);
        }

        @Override
        protected String run(String first) {
            Source<String> source = new Echo();
            String last = first;
            StringBuilder read = new StringBuilder(first);
            int empty = 0;
            while (read.length() < 10) {
                try {
                    last = source.next(last, this);
                    read.append('+').append(last);
                } catch (IllegalArgumentException e) {
                    empty++;
                }
            }
            return read + " (" + empty + " empty)";
        }
    }

    // ------------------------------------------------------------ helpers

    /** The engine that is not this suite's. */
    private Engine otherEngine() {
        return engine() == Engine.NATIVE ? Engine.WOVEN : Engine.NATIVE;
    }

    /** Asserts that no frame of {@code frames} is a bridge's, and that each is of one of {@code methods}, in order. */
    private static void assertFramesWithoutBridges(CoroutineFrame[] frames, String... methods) {
        for (CoroutineFrame frame : frames) {
            assertFalse(frame.method.isBridge(), "a bridge's frame: " + frame);
        }
        assertEquals(List.of(methods), Arrays.stream(frames)
                .map(f -> f.method.getDeclaringClass().getSimpleName() + "." + f.method.getName() + Arrays.stream(
                        f.method.getParameterTypes()).map(Class::getSimpleName).toList())
                .toList());
    }

    private static <T extends AsymCoroutine<?, ?>> T rehomed(T original, T copy) {
        copy.deserialize(SerializationContract.rehome(original.serialize(), original, copy));
        return copy;
    }

    // ------------------------------------------------------------ a generic run(Integer) and its bridge

    @Test
    void aGenericBodyRunsThroughItsBridgeExceptionsIncluded() {
        Summing co = new Summing(engine());
        assertEquals(3, co.call(3));
        assertEquals(7, co.call(4));
        assertEquals(-1, co.call(-5), "step's exception reached run(Integer)'s handler");
        assertEquals(9, co.call(2));
        ArithmeticException e = assertThrows(ArithmeticException.class, () -> co.call(0));
        assertEquals("zero after 9, 1 refused", e.getMessage(), "thrown out of run(Integer), through the bridge");
        assertTrue(co.isFinished());
        assertEquals(List.of("run(Integer) at 9"), co.finallies);
    }

    @Test
    void theOutermostFrameIsTheRealRunAndNoFrameIsTheBridge() {
        Summing co = new Summing(engine());
        co.call(3);
        CoroutineFrame[] frames = co.serialize();
        assertFramesWithoutBridges(frames, "Summing.run[Integer]", "Summing.step[int]");
        for (CoroutineFrame frame : frames) {
            assertSame(co, frame.objectValues[0], "this, in slot 0 of " + frame);
        }
        co.call(-1);
        assertFramesWithoutBridges(co.serialize(), "Summing.run[Integer]");
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void theStateGoesOnInACoroutineOfEitherEngine(Engine target) {
        Summing original = new Summing(engine());
        original.call(3);
        original.call(-4); // suspended in run(Integer)'s handler
        Summing copy = rehomed(original, new Summing(target));
        assertEquals(10, copy.call(7));
        assertEquals(-2, copy.call(-1), "the handler in the restored run(Integer) still applies");
        assertEquals(11, copy.call(1));
        assertEquals(11, copy.call(100), "returned out of run(Integer), through the bridge");
        assertTrue(copy.isFinished());
        assertEquals(List.of("run(Integer) at 11"), copy.finallies);
        original.close();
    }

    @Test
    void framesReadTheSameOnBothEngines() {
        Summing here = new Summing(engine());
        Summing there = new Summing(otherEngine());
        for (int in : new int[] {3, 5, -2}) {
            assertEquals(here.call(in), there.call(in));
        }
        CoroutineFrame[] mine = here.serialize();
        CoroutineFrame[] theirs = SerializationContract.rehome(there.serialize(), there, here);
        assertEquals(mine.length, theirs.length);
        for (int i = 0; i < mine.length; i++) {
            assertEquals(mine[i].method, theirs[i].method, "frame " + i);
            assertEquals(mine[i].bci, theirs[i].bci, "frame " + i);
            assertEquals(Arrays.toString(mine[i].scalarValues), Arrays.toString(theirs[i].scalarValues), "frame " + i);
            assertEquals(Arrays.asList(mine[i].objectValues), Arrays.asList(theirs[i].objectValues), "frame " + i);
        }
    }

    @Test
    void closingUnwindsThroughTheBridge() {
        Summing co = new Summing(engine());
        co.call(6);
        co.close();
        assertTrue(co.isFinished());
        assertEquals(List.of("run(Integer) at 6"), co.finallies);
    }

    @Test
    void aRestoredCoroutineClosesThroughTheBridge() {
        Summing original = new Summing(engine());
        original.call(6);
        Summing copy = rehomed(original, new Summing(otherEngine()));
        copy.close();
        assertEquals(List.of("run(Integer) at 6"), copy.finallies);
        original.close();
    }

    @Test
    void aStolenCoroutineGoesOnThroughTheBridge() throws Throwable {
        Summing co = new Summing(engine());
        assertEquals(2, co.call(2));
        int there = OtherThread.call("thief", () -> {
            assertTrue(co.steal());
            assertEquals(-1, co.call(-3));
            return co.call(5);
        });
        assertEquals(7, there);
        assertTrue(co.steal());
        assertEquals(7, co.call(100));
        assertTrue(co.isFinished());
    }

    @Test
    void aFrameOfAPassedThroughBridgeIsRefused() throws ReflectiveOperationException {
        Summing original = new Summing(engine());
        original.call(3);
        CoroutineFrame[] frames = original.serialize();
        Method bridge = Summing.class.getDeclaredMethod("run", Object.class);
        assertTrue(bridge.isBridge());
        CoroutineFrame bridgeFrame = new CoroutineFrame(bridge, frames[0].bci, 2, 1, new long[3],
                new Object[] {original, 3, original});
        CoroutineFrame[] withBridge = new CoroutineFrame[frames.length + 1];
        withBridge[0] = bridgeFrame;
        System.arraycopy(frames, 0, withBridge, 1, frames.length);
        Summing copy = new Summing(engine());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> copy.deserialize(SerializationContract.rehome(withBridge, original, copy)));
        assertMentions(e.getMessage(), "frame 0 of 3", bridge.toString(), "a bridge that Weft passes through",
                "run(Ljava/lang/Integer;)Ljava/lang/Integer;");
        assertEquals(0, copy.serialize().length, "the coroutine is untouched: still new");
        assertEquals(3, copy.call(3));
        original.close();
    }

    // ------------------------------------------------------------ a covariant return

    @Test
    void aCovariantRunRunsThroughItsBridge() {
        Naming co = new Naming(engine());
        assertEquals("a", co.call("a"));
        assertEquals("ab", co.call("b"));
        assertEquals("abc.", co.call("c"));
        assertTrue(co.isFinished());
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void aCovariantRunsStateHasNoBridgeAndMoves(Engine target) {
        Naming original = new Naming(engine());
        original.call("x");
        assertFramesWithoutBridges(original.serialize(), "Naming.run[Object]");
        assertSame(String.class, original.serialize()[0].method.getReturnType(), "the real run, not the bridge");
        Naming copy = rehomed(original, new Naming(target));
        assertEquals("xy", copy.call("y"));
        assertEquals("xyz.", copy.call("z"));
        original.close();
    }

    // ------------------------------------------------------------ an interface's default bridge, inside the chain

    @Test
    void aCallThroughAnInterfaceBridgeSuspendsAndThrowsIntoItsCaller() {
        Reading co = new Reading(engine());
        assertEquals("ab", co.call("ab"));
        assertEquals("ab", co.call(""), "the empty word was refused in next(), caught in run");
        assertEquals("cd", co.call("cd"));
        assertEquals("ef", co.call("ef"));
        assertEquals("ab+cd+ef+gh (1 empty)", co.call("gh"));
        assertTrue(co.isFinished());
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void anInterfaceBridgeLeavesNoFrameAndTheStateMoves(Engine target) throws ReflectiveOperationException {
        assertTrue(Words.class.getDeclaredMethod("next", Object.class, AsymCoroutine.class).isBridge(),
                "javac gave Words a default bridge");
        Reading original = new Reading(engine());
        original.call("ab");
        original.call("cd");
        CoroutineFrame[] frames = original.serialize();
        assertFramesWithoutBridges(frames, "Reading.run[String]", "Words.next[String, AsymCoroutine]");
        assertNotNull(frames[1].objectValues[0], "Words.next's this");
        Reading copy = rehomed(original, new Reading(target));
        assertEquals("cd", copy.call(""), "refused in the restored next(), caught in the restored run");
        assertEquals("ef", copy.call("ef"));
        assertEquals("ab+cd+ef+gh (1 empty)", copy.call("gh"));
        original.close();
    }
}
