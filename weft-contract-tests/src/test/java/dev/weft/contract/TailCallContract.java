package dev.weft.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.AsymCoroutine;
import dev.weft.CoroutineFrame;
import dev.weft.Engine;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Tail calls: a frame suspended in its last call, with nothing left to do but return what the
 * call gives (which the woven engine passes straight on to the frame's caller, rather than
 * rebuilding the frame to return it), behaves as any other frame. Results of every kind reach
 * the caller, an exception reaches the first handler above, a call inside a try block keeps its
 * handler, {@code close()} runs the {@code finally} blocks below, the frames are saved and move
 * to a fresh coroutine of either engine, and a frame passed over holds nothing alive.
 */
abstract class TailCallContract extends EngineContract {

    private static final int DEPTH = 20;

    /**
     * For each input, calls down {@value #DEPTH} frames by tail calls and {@code ret}s there,
     * passing out {@code "bottom " + input}; the next input goes back up through those frames
     * as their result, and the body calls down again with it, until it gets {@code "stop"}.
     */
    static final class Descent extends AsymCoroutine<String, String> {
        private final Trace trace;

        Descent(Engine engine, Trace trace) {
            super(engine);
            this.trace = trace;
        }

        @Override
        protected String run(String first) {
            String in = first;
            int rounds = 0;
            try {
                while (!in.equals("stop")) {
                    in = down(DEPTH, in);
                    rounds++;
                }
                return "stopped after " + rounds;
            } finally {
                trace.add("finally after " + rounds);
            }
        }

        private String down(int remaining, String in) {
            if (remaining == 0) {
                return ret("bottom " + in);
            }
            return down(remaining - 1, in);
        }
    }

    @Test
    void aResultGoesUpThroughTailCallsAsItIs() {
        Trace trace = new Trace();
        AsymCoroutine<String, String> co = new Descent(engine(), trace);
        for (String in : List.of("a", "b", "c")) {
            assertEquals("bottom " + in, co.call(in));
        }
        assertEquals("stopped after 3", co.call("stop"));
        assertTrue(co.isFinished());
        assertEquals(List.of("finally after 3"), trace.events());
    }

    @Test
    void closeRunsTheFinallyBlockUnderTailCalls() {
        Trace trace = new Trace();
        AsymCoroutine<String, String> co = new Descent(engine(), trace);
        co.call("a");
        co.call("b");
        co.close();
        assertTrue(co.isFinished());
        assertEquals(List.of("finally after 1"), trace.events());
    }

    /**
     * Adds up: passes out its total, takes a number through {@value #DEPTH} int tail calls,
     * passes out its negation, takes a factor back through {@value #DEPTH} long tail calls and
     * adds number times factor; a negative number ends it with the total.
     */
    static final class Totals extends AsymCoroutine<Integer, Long> {

        Totals(Engine engine) {
            super(engine);
        }

        @Override
        protected Long run(Integer first) {
            long total = first;
            while (true) {
                int number = narrow(DEPTH, total);
                if (number < 0) {
                    return total;
                }
                total += wide(DEPTH, number);
            }
        }

        private int narrow(int remaining, long total) {
            return remaining == 0 ? numberAfter(total) : narrow(remaining - 1, total);
        }

        private int numberAfter(long total) {
            return ret(total);
        }

        private long wide(int remaining, int number) {
            return remaining == 0 ? productAfter(number) : wide(remaining - 1, number);
        }

        private long productAfter(int number) {
            int factor = ret((long) -number);
            return (long) number * factor;
        }
    }

    @Test
    void intAndLongResultsGoUpThroughTailCalls() {
        AsymCoroutine<Integer, Long> co = new Totals(engine());
        assertEquals(5L, co.call(5));
        assertEquals(-3L, co.call(3));
        assertEquals(5L + 3L * 1_000_000_007L, co.call(1_000_000_007));
        assertEquals(-7L, co.call(7));
        assertEquals(5L + 3L * 1_000_000_007L - 7L * 11, co.call(-11));
        assertEquals(5L + 3L * 1_000_000_007L - 77L, co.call(-1));
        assertTrue(co.isFinished());
    }

    /**
     * Goes down {@value #DEPTH} frames by tail calls to a frame that takes the next input and
     * throws if it says {@code "throw <message>"}; the body catches that and passes out what it
     * caught. An input starting with {@code "guarded"} goes down to a frame whose call is inside
     * a try block (no tail call), which handles the exception itself.
     */
    static final class Catching extends AsymCoroutine<String, String> {

        Catching(Engine engine) {
            super(engine);
        }

        @Override
        protected String run(String first) {
            String in = first;
            List<String> caught = new ArrayList<>();
            while (!in.equals("stop")) {
                try {
                    in = down(DEPTH, in);
                } catch (IllegalStateException e) {
                    caught.add(e.getMessage());
                    in = ret("caught " + e.getMessage());
                }
            }
            return "caught " + caught;
        }

        private String down(int remaining, String in) {
            if (remaining == 0) {
                return in.startsWith("guarded") ? guarded(in) : takeOrThrow(in);
            }
            return down(remaining - 1, in);
        }

        private String guarded(String in) {
            try {
                return takeOrThrow(in);
            } catch (IllegalStateException e) {
                return ret("handled " + e.getMessage());
            }
        }

        private String takeOrThrow(String in) {
            String next = ret("took " + in);
            if (next.startsWith("throw ")) {
                throw new IllegalStateException(next.substring("throw ".length()));
            }
            return next;
        }
    }

    @Test
    void anExceptionGoesUpThroughTailCallsToTheFirstHandler() {
        assertRepliesThenFinishes(new Catching(engine()), "a", "took a", "throw one", "caught one", "b", "took b",
                "throw two", "caught two", "stop", "caught [one, two]");
    }

    @Test
    void aCallInsideATryKeepsItsHandler() {
        assertRepliesThenFinishes(new Catching(engine()), "guarded", "took guarded", "throw three", "handled three",
                "c", "took c", "throw four", "caught four", "stop", "caught [four]");
    }

    /** Calls {@code co} with each input of {@code inputsAndReplies} in turn, each followed by what the call must return; then it has finished. */
    private static void assertRepliesThenFinishes(AsymCoroutine<String, String> co, String... inputsAndReplies) {
        for (int i = 0; i < inputsAndReplies.length; i += 2) {
            assertEquals(inputsAndReplies[i + 1], co.call(inputsAndReplies[i]), "the reply to " + inputsAndReplies[i]);
        }
        assertTrue(co.isFinished());
    }

    /** Frames suspended in tail calls are saved as any others: one per call, and a fresh coroutine of either engine goes on from them. */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void tailCallsAreSavedFramesAndMoveToEitherEngine(Engine target) {
        Trace trace = new Trace();
        Descent original = new Descent(engine(), trace);
        original.call("a");
        original.call("b");
        CoroutineFrame[] frames = original.serialize();
        assertEquals(DEPTH + 2, frames.length, "the body's frame and one per call of down");
        assertEquals("run", frames[0].method.getName());
        for (int i = 1; i < frames.length; i++) {
            assertEquals("down", frames[i].method.getName(), "frame " + i);
        }
        Descent copy = new Descent(target, trace);
        copy.deserialize(SerializationContract.rehome(frames, original, copy));
        assertSame(target, copy.engine());
        assertEquals("bottom c", copy.call("c"));
        assertEquals("stopped after 3", copy.call("stop"));
        assertEquals("bottom c", original.call("c"), "the original goes on by itself");
        original.close();
    }

    /** The body builds a chain of as many links as its input says; each link's frame calls the next link's by a tail call. */
    static final class Chains extends AsymCoroutine<Integer, String> {
        final List<WeakReference<Link>> links = new ArrayList<>();

        Chains(Engine engine) {
            super(engine);
        }

        @Override
        protected String run(Integer first) {
            int length = first;
            while (length > 0) {
                length = (Integer) new Link(this, length).visit();
            }
            return "done";
        }
    }

    /** One link of a chain: its visit calls the next link's, and the last one {@code ret}s. */
    static final class Link {
        private final Chains chains;
        private final int remaining;
        private final byte[] payload = new byte[1024];

        Link(Chains chains, int remaining) {
            this.chains = chains;
            this.remaining = remaining;
            chains.links.add(new WeakReference<>(this));
        }

        Object visit() {
            if (remaining == 1) {
                return chains.ret("end of a chain of " + chains.links.size() + " links " + payload.length);
            }
            return new Link(chains, remaining - 1).visit();
        }
    }

    /** Once a chain's frames have passed its result up, a shorter chain suspended after it leaves the longer one's links unreachable. */
    @Test
    void framesPassedOverHoldNothingAlive() throws InterruptedException {
        Chains co = new Chains(engine());
        co.call(12);
        List<WeakReference<Link>> first = List.copyOf(co.links);
        assertEquals(12, first.size());
        co.call(3);
        for (int i = 0; i < 50 && first.stream().anyMatch(link -> link.get() != null); i++) {
            System.gc();
            Thread.sleep(10);
        }
        for (int i = 0; i < first.size(); i++) {
            assertNull(first.get(i).get(), "link " + i + " of the first chain is still reachable");
        }
        assertEquals("done", co.call(0));
    }
}
