package dev.weft.bench;

import dev.weft.AsymCoroutine;
import dev.weft.Coroutine;
import dev.weft.CoroutineBase;
import dev.weft.bench.woven.ChainMembers;

import java.util.concurrent.TimeUnit;
import jdk.internal.vm.Continuation;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The fiber chain of thesis section 6.3 (figures 6.2 and 6.3): a message passed through a chain
 * of {@code length} coroutines, each of which receives a value, increments it and passes it to
 * the next; the last passes it back to the driver. A <em>hop</em> is one handoff of the message,
 * so a message makes {@code length + 1} of them (driver to first, between members, last to
 * driver), as the peers outside this JVM count them. The value is a boxed {@code Integer} in
 * every variant, as a queue needs.
 *
 * <ul>
 *   <li>{@link #weftSymmetric}: {@link Coroutine}s passing control with {@code yieldTo}; the
 *       value travels in a field of a {@link ChainMembers.Message};</li>
 *   <li>{@link #weftAsymmetric}: {@link AsymCoroutine}s, each {@code call}ing the next with the
 *       incremented value and {@code ret}urning the answer, so the whole chain nests;</li>
 *   <li>{@link #wovenSymmetric} and {@link #wovenAsymmetric}: the same on the woven engine
 *       ({@link ChainMembers});</li>
 *   <li>{@link #rawTrampoline} and {@link #rawNested}: the floors of those two, on bare
 *       continuations (a driver loop running each in turn; each running the next inside
 *       itself);</li>
 *   <li>threads, platform or virtual, one per member plus a driver of the same kind, handing
 *       the value on through a {@code SynchronousQueue} or an {@code Exchanger} per link.</li>
 * </ul>
 * One invocation sends {@link #messagesPerInvocation} messages down the chain; {@link Report}
 * runs it with {@link #hopsPerInvocation} operations per invocation, so the score is per hop.
 *
 * <p>Every iteration, warm-up or measured, gets a chain of its own, built before its clock
 * starts and closed after it. A member's loop runs in one frame that never returns, and a
 * stackful member keeps that frame while suspended: built before its code is compiled, it runs
 * interpreted until a back edge that happens to trip the interpreter's overflow check (one in
 * 1,024, counted per method over all members) moves it into on-stack-replacement code, and in
 * that code's first tier until a check one in 8,192 moves it on. With 5,000 members that takes
 * thousands of messages, so a chain built once measured mostly its members' first, cold frames,
 * and swung between runs. Built after the earlier iterations compiled the code, every member
 * starts in compiled code: the steady state of a program whose fibers come and go.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {Jvm.EXPORTS, FiberChainBenchmark.STACK})
public class FiberChainBenchmark {

    /** The nested variants stack every member's frames on the driver's thread at once. */
    static final String STACK = "-Xss64m";

    /** Enough messages per invocation to make a few thousand hops, so per-invocation costs vanish. */
    public static int messagesPerInvocation(int length) {
        return Math.max(1, 5_000 / length);
    }

    /** The handoffs one invocation makes: {@code length + 1} per message. */
    public static int hopsPerInvocation(int length) {
        return messagesPerInvocation(length) * (length + 1);
    }

    /** A chain state: its length and how many messages an invocation sends. */
    @State(Scope.Thread)
    public abstract static class Chain {
        @Param({"5", "5000"})
        public int length;

        int messages;
        int seed;

        final void sized() {
            messages = messagesPerInvocation(length);
        }

        /** Checks that a message came back incremented once per member. */
        final int check(int sent, int received) {
            if (received != sent + length) {
                throw new IllegalStateException("sent " + sent + ", got back " + received + " from " + length + " members");
            }
            return received;
        }
    }

    /** A chain of symmetric Weft coroutines: its first member and the message they pass along. */
    public abstract static class SymmetricChain extends Chain {
        Coroutine first;
        final ChainMembers.Message message = new ChainMembers.Message();

        @TearDown(Level.Iteration)
        public void close() {
            CoroutineBase.closeAll();
        }
    }

    /** A chain of asymmetric Weft coroutines, each calling the next: its first member. */
    public abstract static class AsymmetricChain extends Chain {
        AsymCoroutine<Integer, Integer> first;

        @TearDown(Level.Iteration)
        public void close() {
            CoroutineBase.closeAll();
        }
    }

    @State(Scope.Thread)
    public static class WeftSymmetricChain extends SymmetricChain {
        @Setup(Level.Iteration)
        public void create() {
            sized();
            Coroutine next = Coroutine.current(); // the last member passes back to the driver
            for (int i = 0; i < length; i++) {
                Coroutine to = next;
                next = new Coroutine(() -> {
                    while (true) {
                        message.value = message.value + 1;
                        Coroutine.yieldTo(to);
                    }
                });
            }
            first = next;
        }
    }

    @State(Scope.Thread)
    public static class WeftAsymmetricChain extends AsymmetricChain {
        @Setup(Level.Iteration)
        public void create() {
            sized();
            AsymCoroutine<Integer, Integer> next = null;
            for (int i = 0; i < length; i++) {
                AsymCoroutine<Integer, Integer> to = next;
                next = new AsymCoroutine<>((self, in) -> {
                    Integer v = in;
                    while (true) {
                        Integer out = to == null ? Integer.valueOf(v + 1) : to.call(v + 1); // boxed once: `? v + 1 :` would unbox call's result and box it again
                        v = self.ret(out);
                    }
                });
            }
            first = next;
        }
    }

    @State(Scope.Thread)
    public static class WovenSymmetricChain extends SymmetricChain {
        @Setup(Level.Iteration)
        public void create() {
            sized();
            Coroutine next = Coroutine.current();
            for (int i = 0; i < length; i++) {
                next = new ChainMembers.Symmetric(message, next);
            }
            first = next;
        }
    }

    @State(Scope.Thread)
    public static class WovenAsymmetricChain extends AsymmetricChain {
        @Setup(Level.Iteration)
        public void create() {
            sized();
            AsymCoroutine<Integer, Integer> next = null;
            for (int i = 0; i < length; i++) {
                next = new ChainMembers.Asymmetric(next);
            }
            first = next;
        }
    }

    @State(Scope.Thread)
    public static class RawTrampolineChain extends Chain {
        Continuation[] members;
        Integer value;

        @Setup(Level.Iteration)
        public void create() {
            sized();
            members = new Continuation[length];
            for (int i = 0; i < length; i++) {
                members[i] = new Continuation(RawContinuations.SCOPE, () -> {
                    while (true) {
                        value = value + 1;
                        Continuation.yield(RawContinuations.SCOPE);
                    }
                });
            }
        }
    }

    @State(Scope.Thread)
    public static class RawNestedChain extends Chain {
        Continuation first;
        Integer value;

        @Setup(Level.Iteration)
        public void create() {
            sized();
            Continuation next = null;
            for (int i = 0; i < length; i++) {
                Continuation to = next;
                next = new Continuation(RawContinuations.SCOPE, () -> {
                    while (true) {
                        value = value + 1;
                        if (to != null) {
                            to.run();
                        }
                        Continuation.yield(RawContinuations.SCOPE);
                    }
                });
            }
            first = next;
        }
    }

    /** A chain of threads of one kind and one link type. */
    public abstract static class Threads extends Chain {
        ThreadChain chain;

        abstract ThreadChain build();

        @Setup(Level.Iteration)
        public void create() {
            sized();
            chain = build();
        }

        @TearDown(Level.Iteration)
        public void stop() throws InterruptedException {
            chain.stop();
        }
    }

    @State(Scope.Thread)
    public static class PlatformQueueChain extends Threads {
        @Override
        ThreadChain build() {
            return new ThreadChain(length, Thread.ofPlatform().daemon(), ThreadChain.Link::queue);
        }
    }

    @State(Scope.Thread)
    public static class PlatformExchangerChain extends Threads {
        @Override
        ThreadChain build() {
            return new ThreadChain(length, Thread.ofPlatform().daemon(), ThreadChain.Link::exchanger);
        }
    }

    @State(Scope.Thread)
    public static class VirtualQueueChain extends Threads {
        @Override
        ThreadChain build() {
            return new ThreadChain(length, Thread.ofVirtual(), ThreadChain.Link::queue);
        }
    }

    @State(Scope.Thread)
    public static class VirtualExchangerChain extends Threads {
        @Override
        ThreadChain build() {
            return new ThreadChain(length, Thread.ofVirtual(), ThreadChain.Link::exchanger);
        }
    }

    @Benchmark
    public int weftSymmetric(WeftSymmetricChain c) {
        return relay(c);
    }

    @Benchmark
    public int weftAsymmetric(WeftAsymmetricChain c) {
        return relay(c);
    }

    @Benchmark
    public int wovenSymmetric(WovenSymmetricChain c) {
        return relay(c);
    }

    @Benchmark
    public int wovenAsymmetric(WovenAsymmetricChain c) {
        return relay(c);
    }

    /** Sends an invocation's messages round a symmetric chain: each is set in the message, and the driver yields to the first member. */
    private static int relay(SymmetricChain c) {
        int last = 0;
        for (int m = 0; m < c.messages; m++) {
            int sent = c.seed++;
            c.message.value = sent;
            Coroutine.yieldTo(c.first);
            last = c.check(sent, c.message.value);
        }
        return last;
    }

    /** Sends an invocation's messages down an asymmetric chain: each is the first member's call's input. */
    private static int relay(AsymmetricChain c) {
        int last = 0;
        for (int m = 0; m < c.messages; m++) {
            int sent = c.seed++;
            last = c.check(sent, c.first.call(sent));
        }
        return last;
    }

    @Benchmark
    public int rawTrampoline(RawTrampolineChain c) {
        int last = 0;
        for (int m = 0; m < c.messages; m++) {
            int sent = c.seed++;
            c.value = sent;
            for (Continuation member : c.members) {
                member.run();
            }
            last = c.check(sent, c.value);
        }
        return last;
    }

    @Benchmark
    public int rawNested(RawNestedChain c) {
        int last = 0;
        for (int m = 0; m < c.messages; m++) {
            int sent = c.seed++;
            c.value = sent;
            c.first.run();
            last = c.check(sent, c.value);
        }
        return last;
    }

    @Benchmark
    public int platformThreadsQueue(PlatformQueueChain c) throws InterruptedException {
        return c.check(c.seed, c.chain.send(c.seed++, c.messages) - (c.messages - 1) * c.length);
    }

    @Benchmark
    public int platformThreadsExchanger(PlatformExchangerChain c) throws InterruptedException {
        return c.check(c.seed, c.chain.send(c.seed++, c.messages) - (c.messages - 1) * c.length);
    }

    @Benchmark
    public int virtualThreadsQueue(VirtualQueueChain c) throws InterruptedException {
        return c.check(c.seed, c.chain.send(c.seed++, c.messages) - (c.messages - 1) * c.length);
    }

    @Benchmark
    public int virtualThreadsExchanger(VirtualExchangerChain c) throws InterruptedException {
        return c.check(c.seed, c.chain.send(c.seed++, c.messages) - (c.messages - 1) * c.length);
    }
}
