package dev.weft.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.AsymCoroutine;
import dev.weft.AsymRunnable;
import dev.weft.CoroutineBase;
import dev.weft.CoroutineFrame;
import dev.weft.Engine;
import java.lang.ref.Reference;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.FutureTask;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * Chains of asymmetric coroutines, each calling the next from inside its own body: values down
 * and back up through thousands of members, exceptions through the callers' handlers and
 * {@code finally} blocks, what may and may not be done to a caller while it waits, closing,
 * stealing and serializing members of a chain once it has returned. The woven engine runs such
 * calls, made deeper than a few hundred nested runs, without nesting them on the thread's stack, the
 * native engine nests them: both behave the same. So the chains here are called from inside
 * {@link #DEEP} nested coroutines, deeper than the woven engine nests before it runs calls flat.
 */
abstract class CallChainContract extends EngineContract {

    /** How many coroutines deep the chains are called from: well past where the woven engine stops nesting calls. */
    static final int DEEP = 300;

    /** Runs its action inside {@code depth} coroutines, each called from the body of the one before. */
    static final class Nest implements AsymRunnable<Void, Object> {
        private final int depth;
        private final Supplier<Object> action;
        private final Engine engine;

        Nest(int depth, Supplier<Object> action, Engine engine) {
            this.depth = depth;
            this.action = action;
            this.engine = engine;
        }

        @Override
        public Object run(AsymCoroutine<? extends Void, ? super Object> self, Void in) {
            return depth == 0 ? action.get() : new AsymCoroutine<Void, Object>(new Nest(depth - 1, action, engine), engine).call(null);
        }
    }

    /** {@code target.call(input)}, made by a coroutine's body {@link #DEEP} coroutines deep; what it throws comes out as it is. */
    @SuppressWarnings("unchecked")
    <I, O> O callDeep(AsymCoroutine<I, O> target, I input) {
        return (O) new AsymCoroutine<Void, Object>(new Nest(DEEP, () -> target.call(input), engine()), engine()).call(null);
    }

    /**
     * Member {@code index} of a chain: records each input it gets in {@code seen}, calls the next
     * member with the input plus one and passes its answer plus one back; the last member
     * passes back twice its input.
     */
    static final class Relay extends AsymCoroutine<Integer, Integer> {
        private final AsymCoroutine<Integer, Integer> next;
        private final int[] seen;
        private final int index;

        Relay(Engine engine, AsymCoroutine<Integer, Integer> next, int[] seen, int index) {
            super(engine);
            this.next = next;
            this.seen = seen;
            this.index = index;
        }

        @Override
        protected Integer run(Integer first) {
            int in = first;
            while (true) {
                seen[index] = in;
                int out = next == null ? 2 * in : next.call(in + 1) + 1;
                in = ret(out);
            }
        }
    }

    /** A chain of {@code length} relays; returns its head. */
    private AsymCoroutine<Integer, Integer> chain(int length, int[] seen) {
        AsymCoroutine<Integer, Integer> next = null;
        for (int i = length - 1; i >= 0; i--) {
            next = new Relay(engine(), next, seen, i);
        }
        return next;
    }

    /** What the head of a chain of {@code length} relays answers to {@code input}. */
    static int answer(int length, int input) {
        return 2 * (input + length - 1) + length - 1;
    }

    /** Sends a few messages down a chain of {@code length} relays and checks every member's input and every answer. */
    void sendThroughAChainOf(int length) {
        int[] seen = new int[length];
        AsymCoroutine<Integer, Integer> head = chain(length, seen);
        for (int message = 0; message < 3; message++) {
            int input = 1000 * message;
            assertEquals(answer(length, input), callDeep(head, input));
            for (int i = 0; i < length; i++) {
                assertEquals(input + i, seen[i], "input of member " + i);
            }
        }
        assertFalse(head.isFinished());
        int closed = CoroutineBase.closeAll();
        // the thread tracks started coroutines weakly: the chain, reached only from head, must
        // stay reachable until all of it is closed, or a collection during closeAll takes some
        Reference.reachabilityFence(head);
        assertEquals(length, closed);
    }

    /** Runs {@code task} on a new thread with a stack of {@code stackBytes}, and rethrows what it threw. */
    static void onThreadWithStack(long stackBytes, Runnable task) throws Throwable {
        FutureTask<Void> future = new FutureTask<>(task, null);
        Thread thread = new Thread(null, future, "chain", stackBytes);
        thread.start();
        try {
            future.get();
        } catch (java.util.concurrent.ExecutionException e) {
            throw e.getCause();
        } finally {
            thread.join();
        }
    }

    @Test
    void aChainOfThousandsOfCallsPassesEveryValueDownAndBack() throws Throwable {
        onThreadWithStack(256L << 20, () -> sendThroughAChainOf(5_000)); // room for the native engine, which nests
    }

    /** Calls the next member from inside a JDK method's callback, which the woven engine cannot unwind through. */
    static final class ViaCallback extends AsymCoroutine<Integer, Integer> {
        private final AsymCoroutine<Integer, Integer> next;

        ViaCallback(Engine engine, AsymCoroutine<Integer, Integer> next) {
            super(engine);
            this.next = next;
        }

        @Override
        protected Integer run(Integer first) {
            int in = first;
            while (true) {
                in = ret(java.util.Optional.of(in).map(v -> next.call(v + 1) + 1).orElseThrow());
            }
        }
    }

    @Test
    void aCallMadeFromACallbackOfUnwovenCodeReturnsToItsCaller() {
        int[] seen = new int[3];
        AsymCoroutine<Integer, Integer> tail = chain(2, seen);
        AsymCoroutine<Integer, Integer> head = new ViaCallback(engine(), tail);
        for (int input = 0; input < 3; input++) {
            assertEquals(answer(3, input), callDeep(head, input));
            assertEquals(List.of(input + 1, input + 2), List.of(seen[0], seen[1]));
        }
    }

    // ------------------------------------------------------------ exceptions

    /** Throws at its first call, naming its input. */
    static final class Thrower implements AsymRunnable<Integer, Integer> {
        @Override
        public Integer run(AsymCoroutine<? extends Integer, ? super Integer> self, Integer in) {
            throw new IllegalStateException("thrown with " + in);
        }
    }

    /** Calls the next with its input plus one inside try/finally, logging the finally. */
    static final class Finally implements AsymRunnable<Integer, Integer> {
        private final AsymCoroutine<Integer, Integer> next;
        private final List<String> log;

        Finally(AsymCoroutine<Integer, Integer> next, List<String> log) {
            this.next = next;
            this.log = log;
        }

        @Override
        public Integer run(AsymCoroutine<? extends Integer, ? super Integer> self, Integer in) {
            try {
                return next.call(in + 1);
            } finally {
                log.add("finally");
            }
        }
    }

    /** Calls the next with each input, passing back -1 and logging the message of what the call threw. */
    static final class Catcher implements AsymRunnable<Integer, Integer> {
        private final AsymCoroutine<Integer, Integer> next;
        private final List<String> log;

        Catcher(AsymCoroutine<Integer, Integer> next, List<String> log) {
            this.next = next;
            this.log = log;
        }

        @Override
        public Integer run(AsymCoroutine<? extends Integer, ? super Integer> self, Integer first) {
            int in = first;
            while (true) {
                int out;
                try {
                    out = next.call(in);
                } catch (IllegalStateException e) {
                    log.add("caught " + e.getMessage());
                    out = -1;
                }
                in = self.ret(out);
            }
        }
    }

    @Test
    void anExceptionPassesThroughTheCallersFinallyBlocksToTheFirstHandler() {
        List<String> log = new ArrayList<>();
        AsymCoroutine<Integer, Integer> thrower = new AsymCoroutine<>(new Thrower(), engine());
        AsymCoroutine<Integer, Integer> middle = new AsymCoroutine<>(new Finally(thrower, log), engine());
        AsymCoroutine<Integer, Integer> head = new AsymCoroutine<>(new Catcher(middle, log), engine());
        thrower.setName("thrower");
        middle.setName("middle");

        assertEquals(-1, callDeep(head, 5));
        assertEquals(List.of("finally", "caught thrown with 6"), log);
        assertTrue(thrower.isFinished());
        assertTrue(middle.isFinished());
        assertFalse(head.isFinished());

        assertEquals(-1, head.call(7)); // the next call is refused at the call site, inside the caller
        assertEquals("caught cannot call middle [finished, thread " + Thread.currentThread().getName() + "]: it has finished",
                log.get(2));
    }

    @Test
    void anExceptionNoCallerHandlesComesOutOfTheFirstCall() {
        List<String> log = new ArrayList<>();
        AsymCoroutine<Integer, Integer> thrower = new AsymCoroutine<>(new Thrower(), engine());
        AsymCoroutine<Integer, Integer> head = new AsymCoroutine<>(new Finally(thrower, log), engine());
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> callDeep(head, 1));
        assertEquals("thrown with 2", e.getMessage());
        assertEquals(List.of("finally"), log);
        assertTrue(head.isFinished());
    }

    // ------------------------------------------------------------ a waiting caller

    /**
     * While its caller waits for it, tries what nobody may do to a caller that is calling, and
     * logs each refusal's type and message; closes a suspended sibling, and passes back its input.
     */
    static final class TriesTheWaitingCaller implements AsymRunnable<AsymCoroutine<Integer, Integer>, Integer> {
        private final List<String> log;
        private final AsymCoroutine<Integer, Integer> sibling;

        TriesTheWaitingCaller(List<String> log, AsymCoroutine<Integer, Integer> sibling) {
            this.log = log;
            this.sibling = sibling;
        }

        @Override
        public Integer run(AsymCoroutine<? extends AsymCoroutine<Integer, Integer>, ? super Integer> self,
                AsymCoroutine<Integer, Integer> caller) {
            attempt(() -> caller.call(0));
            attempt(caller::close);
            attempt(caller::serialize);
            attempt(CoroutineBase::closeAll);
            attempt(() -> {
                try {
                    OtherThread.run("thief", caller::steal);
                } catch (Throwable t) {
                    throw EngineContract.rethrow(t);
                }
            });
            sibling.close();
            return 42;
        }

        private void attempt(Runnable action) {
            try {
                action.run();
                log.add("allowed");
            } catch (RuntimeException e) {
                log.add(e.getClass().getSimpleName() + ": " + e.getMessage());
            }
        }
    }

    /** Calls the coroutine it gets with itself, and passes back what that returns. */
    static final class CallsWithItself implements AsymRunnable<AsymCoroutine<AsymCoroutine<Integer, Integer>, Integer>, Integer> {
        @Override
        @SuppressWarnings("unchecked")
        public Integer run(AsymCoroutine<? extends AsymCoroutine<AsymCoroutine<Integer, Integer>, Integer>, ? super Integer> self,
                AsymCoroutine<AsymCoroutine<Integer, Integer>, Integer> callee) {
            return callee.call((AsymCoroutine<Integer, Integer>) (Object) self);
        }
    }

    /** Passes back its input, then, closed, calls a new coroutine from its finally block and logs the answer. */
    static final class CallsWhileClosing implements AsymRunnable<String, String> {
        private final List<String> log;
        private final Engine engine;

        CallsWhileClosing(List<String> log, Engine engine) {
            this.log = log;
            this.engine = engine;
        }

        @Override
        public String run(AsymCoroutine<? extends String, ? super String> self, String in) {
            try {
                while (true) {
                    in = self.ret(in);
                }
            } finally {
                log.add(new AsymCoroutine<>(new Shout(), engine).call("closed " + in));
            }
        }
    }

    /** Passes back its input in upper case and finishes. */
    static final class Shout implements AsymRunnable<String, String> {
        @Override
        public String run(AsymCoroutine<? extends String, ? super String> self, String in) {
            return in.toUpperCase(java.util.Locale.ROOT);
        }
    }

    @Test
    void aWaitingCallerCannotBeCalledClosedSerializedOrStolenAndTheCalleeMayCloseOthers() {
        List<String> log = new ArrayList<>();
        AsymCoroutine<String, String> sibling = new AsymCoroutine<>(new CallsWhileClosing(log, engine()), engine());
        assertEquals("x", sibling.call("x"));
        @SuppressWarnings({"unchecked", "rawtypes"})
        AsymCoroutine<AsymCoroutine<Integer, Integer>, Integer> callee =
                new AsymCoroutine<>(new TriesTheWaitingCaller(log, (AsymCoroutine) sibling), engine());
        AsymCoroutine<AsymCoroutine<AsymCoroutine<Integer, Integer>, Integer>, Integer> caller =
                new AsymCoroutine<>(new CallsWithItself(), engine());
        caller.setName("waiting");

        assertEquals(42, callDeep(caller, callee));

        assertEquals(6, log.size(), log.toString());
        String waiting = "waiting [calling, thread " + Thread.currentThread().getName() + "]";
        assertMentions(log.get(0), "IllegalStateException: cannot call " + waiting + ": it is already running on this thread");
        assertMentions(log.get(1), "IllegalStateException: cannot close " + waiting + ": it is already running on this thread");
        assertEquals("IllegalArgumentException: cannot serialize " + waiting + ": it is in the middle of calling another coroutine",
                log.get(2));
        assertMentions(log.get(3), "IllegalStateException: closeAll() must be called from the initial coroutine of thread");
        assertEquals("IllegalArgumentException: cannot steal " + waiting + ": it is in the middle of calling another coroutine",
                log.get(4));
        assertEquals("CLOSED X", log.get(5));
        assertTrue(sibling.isFinished());
        assertTrue(caller.isFinished());
        assertTrue(callee.isFinished());
    }

    /** Calls the next (if any) with each input and passes its answer back; closed, calls a new coroutine from its finally block. */
    static final class Guarded implements AsymRunnable<String, String> {
        private final AsymCoroutine<String, String> next;
        private final List<String> log;
        private final Engine engine;
        private final String name;

        Guarded(AsymCoroutine<String, String> next, List<String> log, Engine engine, String name) {
            this.next = next;
            this.log = log;
            this.engine = engine;
            this.name = name;
        }

        @Override
        public String run(AsymCoroutine<? extends String, ? super String> self, String first) {
            String in = first;
            try {
                while (true) {
                    String out = next == null ? in : next.call(in + name);
                    in = self.ret(out);
                }
            } finally {
                log.add(new AsymCoroutine<>(new Shout(), engine).call("closed " + name));
            }
        }
    }

    @Test
    void closeAllClosesEveryMemberOfASuspendedChainAndTheirFinallyBlocksMayCall() {
        List<String> log = new ArrayList<>();
        AsymCoroutine<String, String> c = new AsymCoroutine<>(new Guarded(null, log, engine(), "c"), engine());
        AsymCoroutine<String, String> b = new AsymCoroutine<>(new Guarded(c, log, engine(), "b"), engine());
        AsymCoroutine<String, String> a = new AsymCoroutine<>(new Guarded(b, log, engine(), "a"), engine());
        assertEquals(">ab", callDeep(a, ">"));
        assertEquals("+ab", callDeep(a, "+"));

        c.close();
        assertEquals(List.of("CLOSED C"), log);
        assertEquals(2, CoroutineBase.closeAll());
        assertEquals(Set.of("CLOSED A", "CLOSED B", "CLOSED C"), Set.copyOf(log));
        assertTrue(a.isFinished() && b.isFinished() && c.isFinished());
    }

    // ------------------------------------------------------------ steal and serialization

    @Test
    void aCalleeStolenAwayRunsOnTheThiefAndItsCallersNextCallIsRefusedAtTheCallSite() throws Throwable {
        int[] seen = new int[3];
        Relay head = (Relay) chain(3, seen);
        Relay middle = (Relay) head.next;
        AsymCoroutine<Integer, Integer> tail = middle.next;
        tail.setName("tail");
        assertEquals(answer(3, 10), callDeep(head, 10));

        OtherThread.run("thief", () -> {
            assertTrue(tail.steal());
            assertEquals(14, tail.call(7));
        });
        RuntimeException e = assertThrows(RuntimeException.class, () -> callDeep(head, 20));
        assertEquals("WrongThreadException", e.getClass().getSimpleName());
        String here = Thread.currentThread().getName();
        assertEquals("cannot call tail [suspended, thread thief] from thread " + here + ": it belongs to thread thief",
                e.getMessage());
        assertTrue(middle.isFinished());
        assertTrue(head.isFinished());
        assertFalse(tail.isFinished());

        assertTrue(tail.steal()); // back from the thief, which has ended
        assertEquals(2, tail.call(1));
        assertEquals(1, CoroutineBase.closeAll());
    }

    @Test
    void aWholeChainStolenTogetherRunsOnTheThief() throws Throwable {
        int[] seen = new int[4];
        AsymCoroutine<Integer, Integer> head = chain(4, seen);
        List<AsymCoroutine<Integer, Integer>> members = new ArrayList<>();
        for (AsymCoroutine<Integer, Integer> m = head; m != null; m = ((Relay) m).next) {
            members.add(m);
        }
        assertEquals(answer(4, 1), callDeep(head, 1));
        OtherThread.run("thief", () -> {
            for (AsymCoroutine<Integer, Integer> m : members) {
                assertTrue(m.steal());
            }
            assertEquals(answer(4, 50), callDeep(head, 50));
            for (int i = 0; i < 4; i++) {
                assertEquals(50 + i, seen[i]);
            }
            assertEquals(4, CoroutineBase.closeAll());
        });
    }

    @Test
    void aMemberOfAChainSerializedBetweenMessagesResumesInACopy() {
        int[] seen = new int[3];
        Relay tail = new Relay(engine(), null, seen, 2);
        Relay middle = new Relay(engine(), tail, seen, 1);
        Relay head = new Relay(engine(), middle, seen, 0);
        assertEquals(answer(3, 3), callDeep(head, 3));
        assertEquals(answer(3, 4), callDeep(head, 4));

        Relay middleCopy = new Relay(engine(), tail, seen, 1);
        middleCopy.deserialize(SerializationContract.rehome(middle.serialize(), middle, middleCopy));
        Relay headCopy = new Relay(engine(), middleCopy, seen, 0);
        CoroutineFrame[] headFrames = head.serialize();
        headCopy.deserialize(SerializationContract.rehome(headFrames, head, headCopy));

        assertEquals(answer(3, 100), callDeep(headCopy, 100));
        assertEquals(List.of(100, 101, 102), List.of(seen[0], seen[1], seen[2]));
        assertEquals(answer(3, 7), callDeep(head, 7)); // the originals go on too: the head still calls the old middle
    }
}
