package dev.weft.contract;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.AsymCoroutine;
import dev.weft.AsymRunnable;
import dev.weft.Coroutine;
import dev.weft.CoroutineBase;
import dev.weft.CoroutineFrame;
import dev.weft.CoroutineInputStream;
import dev.weft.CoroutineOutputStream;
import dev.weft.Engine;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Serialization (thesis 3.2.4 and 5.2): {@code serialize()} gives a suspended coroutine's
 * frames, {@code deserialize} puts them into a fresh coroutine of either engine, which resumes
 * where the original was suspended with every value as it was; the object streams carry them
 * through bytes; what cannot be serialized is refused, naming the coroutine.
 */
abstract class SerializationContract extends EngineContract {

    // ------------------------------------------------------------ bodies

    /**
     * Locals of every kind, changed on each round and passed out from a helper method, so that
     * the coroutine is suspended in {@code step}, called by {@code run}.
     */
    static final class Accumulating extends AsymCoroutine<Integer, String> {
        Accumulating(Engine engine) {
            super(engine);
        }

        @Override
        protected String run(Integer first) {
            long total = 0;
            double mean = 0;
            float scale = 1.5f;
            boolean odd = false;
            char mark = 'a';
            int[] seen = new int[3];
            String label = "n";
            int in = first;
            for (int i = 0; i < 4; i++) {
                total += in;
                mean = total / (double) (i + 1);
                scale *= 2;
                odd = (in & 1) == 1;
                mark++;
                seen[i % 3] += in;
                in = step(label + i, total, mean, scale, odd, mark, seen);
            }
            return "end " + total + " " + mean + " " + Arrays.toString(seen) + " " + mark + " " + odd;
        }

        private int step(String label, long total, double mean, float scale, boolean odd, char mark, int[] seen) {
            String line = label + ":" + total + ":" + mean + ":" + scale + ":" + odd + ":" + mark + ":" + Arrays.toString(seen);
            return ret(line);
        }
    }

    private static final List<Integer> INPUTS = List.of(3, 10, 7, 20, 5);

    /** What {@link Accumulating} passes out for {@link #INPUTS}, straight through. */
    private static final List<String> EXPECTED = List.of(
            "n0:3:3.0:3.0:true:b:[3, 0, 0]",
            "n1:13:6.5:6.0:false:c:[3, 10, 0]",
            "n2:20:6.666666666666667:12.0:true:d:[3, 10, 7]",
            "n3:40:10.0:24.0:false:e:[23, 10, 7]",
            "end 40 10.0 [23, 10, 7] e false");

    /** Calls {@code co} with {@link #INPUTS} from {@code from} (inclusive) to {@code to} (exclusive); its outputs. */
    private static List<String> drive(AsymCoroutine<Integer, String> co, int from, int to) {
        List<String> out = new ArrayList<>();
        for (int i = from; i < to; i++) {
            out.add(co.call(INPUTS.get(i)));
        }
        return out;
    }

    /** A new {@link Accumulating} on {@code engine}, called {@code k} times. */
    private static AsymCoroutine<Integer, String> suspendedAt(int k, Engine engine) {
        AsymCoroutine<Integer, String> co = new Accumulating(engine);
        assertEquals(EXPECTED.subList(0, k), drive(co, 0, k));
        return co;
    }

    /**
     * {@code frames}, with every reference to {@code from} replaced by {@code to}: the frames of a
     * coroutine reference the objects of its stack, itself included (thesis figure 3.9), and a
     * copy must reference itself instead (thesis 5.2 does this with an object stream).
     */
    static CoroutineFrame[] rehome(CoroutineFrame[] frames, Object from, Object to) {
        for (CoroutineFrame frame : frames) {
            for (int i = 0; i < frame.objectValues.length; i++) {
                if (frame.objectValues[i] == from) {
                    frame.objectValues[i] = to;
                }
            }
        }
        return frames;
    }

    // ------------------------------------------------------------ serialize and deserialize

    @Test
    void theBodyPassesOutExactlyTheseValues() {
        AsymCoroutine<Integer, String> co = new Accumulating(engine());
        assertEquals(EXPECTED, drive(co, 0, INPUTS.size()));
        assertTrue(co.isFinished());
    }

    @Test
    void framesAreOutermostFirstWithTheStateOfEachMethod() {
        AsymCoroutine<Integer, String> co = suspendedAt(2, engine());
        CoroutineFrame[] frames = co.serialize();
        // run(Integer), which calls step; the bridge javac adds for the generic run(Object) is passed through
        assertEquals(List.of("run", "step"), Arrays.stream(frames).map(f -> f.method.getName()).toList());
        assertFalse(frames[0].method.isBridge(), frames[0].method.toString());
        assertSame(Integer.class, frames[0].method.getParameterTypes()[0]);
        for (CoroutineFrame frame : frames) {
            assertSame(Accumulating.class, frame.method.getDeclaringClass());
            assertSame(co, frame.objectValues[0], "this, in slot 0 of " + frame);
        }
    }

    @Test
    void aSuspendedCoroutineGoesOnInAFreshOneWithEveryValue() {
        for (int k = 1; k < EXPECTED.size(); k++) {
            AsymCoroutine<Integer, String> original = suspendedAt(k, engine());
            AsymCoroutine<Integer, String> copy = new Accumulating(engine());
            copy.deserialize(rehome(original.serialize(), original, copy));
            assertEquals(EXPECTED.subList(k, EXPECTED.size()), drive(copy, k, INPUTS.size()), "restored after " + k + " calls");
            assertTrue(copy.isFinished());
            original.close();
        }
    }

    /**
     * deserialize checks a copy of the frames and restores that copy: whatever the caller does to
     * the frames or their arrays afterwards, even before the first resume, changes nothing.
     */
    @Test
    void framesChangedAfterDeserializeChangeNothing() {
        for (int k = 1; k < EXPECTED.size(); k++) {
            AsymCoroutine<Integer, String> original = suspendedAt(k, engine());
            AsymCoroutine<Integer, String> copy = new Accumulating(engine());
            CoroutineFrame[] frames = rehome(original.serialize(), original, copy);
            CoroutineFrame[] kept = frames.clone();
            copy.deserialize(frames);
            for (CoroutineFrame frame : kept) {
                Arrays.fill(frame.scalarValues, -1L);
                Arrays.fill(frame.objectValues, "tampered");
                frame.bci = -1;
                frame.method = null;
            }
            Arrays.fill(frames, null);
            assertEquals(EXPECTED.subList(k, EXPECTED.size()), drive(copy, k, INPUTS.size()), "restored after " + k + " calls");
            original.close();
        }
    }

    /** From this suite's engine to each: native to woven and woven to native among them. */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void framesMoveToACoroutineOfEitherEngine(Engine target) {
        for (int k = 1; k < EXPECTED.size(); k++) {
            AsymCoroutine<Integer, String> original = suspendedAt(k, engine());
            AsymCoroutine<Integer, String> copy = new Accumulating(target);
            copy.deserialize(rehome(original.serialize(), original, copy));
            assertSame(target, copy.engine());
            assertEquals(EXPECTED.subList(k, EXPECTED.size()), drive(copy, k, INPUTS.size()),
                    "from " + engine() + " to " + target + " after " + k + " calls");
            original.close();
        }
    }

    /**
     * Goes down as many frames as each call's input says, each frame holding locals that it
     * checks when the frames below have returned, and passes out the path it took; a negative
     * input ends it. So its stack is deep at one suspension and shallow at the next.
     */
    static final class DeepThenShallow extends AsymCoroutine<Integer, String> {
        DeepThenShallow(Engine engine) {
            super(engine);
        }

        @Override
        protected String run(Integer first) {
            int depth = first;
            int rounds = 0;
            while (depth >= 0) {
                depth = down(depth, rounds, "d" + depth);
                rounds++;
            }
            return "rounds " + rounds;
        }

        private int down(int levels, long weight, String path) {
            if (levels == 0) {
                return ret(path + "|" + weight);
            }
            long mine = weight * 31 + levels;
            String below = path + "." + levels;
            int next = down(levels - 1, mine, below);
            if (mine != weight * 31 + levels || !below.equals(path + "." + levels)) {
                throw new AssertionError("the frame at level " + levels + " lost its locals");
            }
            return next;
        }

        /** What it passes out in round {@code round} when called with {@code depth}, computed directly. */
        static String expected(int depth, int round) {
            StringBuilder path = new StringBuilder("d" + depth);
            long weight = round;
            for (int levels = depth; levels > 0; levels--) {
                weight = weight * 31 + levels;
                path.append('.').append(levels);
            }
            return path + "|" + weight;
        }
    }

    /** Deep, shallow, deep again, empty: the saved state grows and shrinks with the stack. */
    private static final List<Integer> DEPTHS = List.of(300, 0, 2, 250, 1, 0, 120, 3);

    /**
     * A coroutine suspended deep, then shallow, then deep again resumes with every frame's locals
     * at each step; at each suspension its frames are as many as its stack is deep, and a fresh
     * coroutine given them goes on to the same end.
     */
    @Test
    void aCoroutineSuspendedDeepThenShallowKeepsEveryFrameAndSerializesAtEachDepth() {
        AsymCoroutine<Integer, String> co = new DeepThenShallow(engine());
        int framesAboveTheStack = -1;
        for (int round = 0; round < DEPTHS.size(); round++) {
            int depth = DEPTHS.get(round);
            assertEquals(DeepThenShallow.expected(depth, round), co.call(depth), "round " + round);
            CoroutineFrame[] frames = co.serialize();
            int above = frames.length - depth;
            if (framesAboveTheStack < 0) {
                framesAboveTheStack = above;
            }
            assertEquals(framesAboveTheStack, above, "frames at depth " + depth + " (round " + round + ")");
            AsymCoroutine<Integer, String> copy = new DeepThenShallow(engine());
            copy.deserialize(rehome(frames, co, copy));
            assertEquals(DeepThenShallow.expected(7, round + 1), copy.call(7), "the copy of round " + round);
            assertEquals("rounds " + (round + 2), copy.call(-1));
            assertTrue(copy.isFinished());
        }
        assertEquals("rounds " + DEPTHS.size(), co.call(-1));
        assertTrue(co.isFinished());
    }

    /**
     * Walks the leaves of the range [from, to) split at a third, left part first, passing out each
     * leaf as {@code leaf@depth}; then returns null. Between two suspensions its stack goes back
     * up by one frame or by many and down again, as a recursive generator's does, so that the
     * frames saved at one suspension lie above frames saved at earlier ones.
     */
    static final class ThirdsWalker extends AsymCoroutine<Object, String> {
        private final int leaves;

        ThirdsWalker(Engine engine, int leaves) {
            super(engine);
            this.leaves = leaves;
        }

        @Override
        protected String run(Object first) {
            walk(0, leaves, 0);
            return null;
        }

        private void walk(int from, int to, int depth) {
            if (to - from == 1) {
                ret(from + "@" + depth);
                return;
            }
            int split = from + Math.max(1, (to - from) / 3);
            walk(from, split, depth + 1);
            walk(split, to, depth + 1);
        }

        /** The leaves of [from, to) at {@code depth}, in the walk's order, computed directly. */
        static List<String> leaves(int from, int to, int depth) {
            List<String> found = new ArrayList<>();
            if (to - from == 1) {
                found.add(from + "@" + depth);
            } else {
                int split = from + Math.max(1, (to - from) / 3);
                found.addAll(leaves(from, split, depth + 1));
                found.addAll(leaves(split, to, depth + 1));
            }
            return found;
        }
    }

    /**
     * A recursive walk resumed leaf by leaf passes out every leaf in order; at each suspension its
     * frames are as many as the walk is deep, and a fresh coroutine given them at every third
     * leaf passes out the rest and ends.
     */
    @Test
    void aRecursiveWalkKeepsItsFramesFromLeafToLeafAndSerializesAtEachLeaf() {
        int count = 60;
        List<String> expected = ThirdsWalker.leaves(0, count, 0);
        AsymCoroutine<Object, String> walker = new ThirdsWalker(engine(), count);
        int framesAboveTheWalk = -1;
        for (int k = 0; k < count; k++) {
            String leaf = walker.call(null);
            assertEquals(expected.get(k), leaf, "leaf " + k);
            CoroutineFrame[] frames = walker.serialize();
            int above = frames.length - Integer.parseInt(leaf.substring(leaf.indexOf('@') + 1));
            if (framesAboveTheWalk < 0) {
                framesAboveTheWalk = above;
            }
            assertEquals(framesAboveTheWalk, above, "frames at leaf " + k);
            if (k % 3 == 1) {
                AsymCoroutine<Object, String> copy = new ThirdsWalker(engine(), count);
                copy.deserialize(rehome(frames, walker, copy));
                for (int rest = k + 1; rest < count; rest++) {
                    assertEquals(expected.get(rest), copy.call(null), "the copy made at leaf " + k + ", leaf " + rest);
                }
                assertEquals(null, copy.call(null), "the end of the copy made at leaf " + k);
                assertTrue(copy.isFinished());
            }
        }
        assertEquals(null, walker.call(null));
        assertTrue(walker.isFinished());
    }

    @Test
    void serializingLeavesTheCoroutineAsItWas() {
        AsymCoroutine<Integer, String> co = suspendedAt(3, engine());
        CoroutineFrame[] first = co.serialize();
        CoroutineFrame[] second = co.serialize();
        assertEquals(first.length, second.length);
        for (int i = 0; i < first.length; i++) {
            assertEquals(first[i].method, second[i].method);
            assertEquals(first[i].bci, second[i].bci);
            assertArrayEquals(first[i].scalarValues, second[i].scalarValues);
            assertArrayEquals(first[i].objectValues, second[i].objectValues);
        }
        assertEquals(EXPECTED.subList(3, EXPECTED.size()), drive(co, 3, INPUTS.size()));
    }

    @Test
    void aNewCoroutineHasNoFrames() {
        assertArrayEquals(new CoroutineFrame[0], new Accumulating(engine()).serialize());
        assertArrayEquals(new CoroutineFrame[0], new Coroutine(new Chatter("idle", new ArrayList<>()), engine()).serialize());
        AsymCoroutine<Integer, String> copy = new Accumulating(engine());
        copy.deserialize(new CoroutineFrame[0]);
        assertEquals(EXPECTED, drive(copy, 0, INPUTS.size()), "no frames: it starts from the beginning");
    }

    // ------------------------------------------------------------ symmetric coroutines

    /**
     * Logs three laps, yielding once in each from a helper method; serializable, with its log
     * replaced on the way through bytes (see {@link LogOutputStream}).
     */
    static final class Chatter implements Runnable, Serializable {
        private static final long serialVersionUID = 1L;

        private final String name;
        private final List<String> log;

        Chatter(String name, List<String> log) {
            this.name = name;
            this.log = log;
        }

        @Override
        public void run() {
            long ticks = 1;
            for (int lap = 0; lap < 3; lap++) {
                ticks = lap(lap, ticks);
            }
            log.add(name + " done " + ticks);
        }

        private long lap(int lap, long ticks) {
            String where = name + "@" + lap;
            log.add(where + " " + ticks);
            Coroutine.yield();
            return ticks * 3 + lap;
        }
    }

    private static final List<String> CHATTER = List.of("A@0 1", "A@1 3", "A@2 10", "A done 32");

    /** Runs {@code co} on until it has finished, by yielding from the initial coroutine. */
    private static void yieldUntilFinished(CoroutineBase co) {
        for (int i = 0; i < 10 && !co.isFinished(); i++) {
            Coroutine.yield();
        }
        assertTrue(co.isFinished(), co.toString());
    }

    /** From this suite's engine to each: the body object and its log are the copy's own. */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void aSymmetricCoroutineGoesOnInAFreshOne(Engine target) {
        List<String> log = new ArrayList<>();
        Chatter body = new Chatter("A", log);
        Coroutine original = new Coroutine(body, engine());
        Coroutine.yield();
        Coroutine.yield();
        assertEquals(CHATTER.subList(0, 2), log);
        CoroutineFrame[] frames = original.serialize();
        original.close();

        List<String> copyLog = new ArrayList<>();
        Chatter copyBody = new Chatter("A", copyLog);
        Coroutine copy = new Coroutine(copyBody, target);
        copy.deserialize(rehome(rehome(frames, original, copy), body, copyBody));
        yieldUntilFinished(copy);
        assertEquals(CHATTER.subList(2, 4), copyLog);
        assertEquals(CHATTER.subList(0, 2), log, "the original did not run again");
    }

    // ------------------------------------------------------------ through bytes

    /** Writes {@code co} with a {@link CoroutineOutputStream}. */
    private static byte[] write(AsymCoroutine<Integer, String> co) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (CoroutineOutputStream<Integer, String> out = new CoroutineOutputStream<>(bytes)) {
            out.writeAsymCoroutine(co);
        }
        return bytes.toByteArray();
    }

    /** Reads {@code bytes} into {@code target} with a {@link CoroutineInputStream}. */
    private static AsymCoroutine<Integer, String> read(byte[] bytes, AsymCoroutine<Integer, String> target) throws IOException {
        try (CoroutineInputStream<Integer, String> in = new CoroutineInputStream<>(new ByteArrayInputStream(bytes))) {
            return in.readAsymCoroutine(target);
        }
    }

    /** From this suite's engine to each; the bytes hold copies, so the original goes on independently. */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void anAsymmetricCoroutineGoesThroughBytes(Engine target) throws IOException {
        for (int k = 1; k < EXPECTED.size(); k++) {
            AsymCoroutine<Integer, String> original = suspendedAt(k, engine());
            byte[] bytes = write(original);
            AsymCoroutine<Integer, String> copy = read(bytes, new Accumulating(target));
            assertSame(target, copy.engine());
            assertEquals(EXPECTED.subList(k, EXPECTED.size()), drive(copy, k, INPUTS.size()),
                    "read into " + target + " after " + k + " calls");
            assertEquals(EXPECTED.subList(k, EXPECTED.size()), drive(original, k, INPUTS.size()), "the original");
        }
    }

    @Test
    void aNewCoroutineGoesThroughBytesAndStartsFromTheBeginning() throws IOException {
        byte[] bytes = write(new Accumulating(engine()));
        AsymCoroutine<Integer, String> copy = read(bytes, new Accumulating(engine()));
        assertEquals(EXPECTED, drive(copy, 0, INPUTS.size()));
    }

    /** What a {@link Chatter}'s log is written as: the reader puts its own log in its place. */
    enum LogMarker {
        LOG
    }

    /** Writes {@code log} as a marker, with the rest of the frames. */
    static final class LogOutputStream extends CoroutineOutputStream<Void, Void> {
        private final List<String> log;

        LogOutputStream(OutputStream out, List<String> log) throws IOException {
            super(out);
            this.log = log;
        }

        @Override
        protected Object replaceObject(Object obj) throws IOException {
            return obj == log ? LogMarker.LOG : super.replaceObject(obj);
        }
    }

    /** Reads the marker as {@code log}. */
    static final class LogInputStream extends CoroutineInputStream<Void, Void> {
        private final List<String> log;

        LogInputStream(InputStream in, List<String> log) throws IOException {
            super(in);
            this.log = log;
            allow(LogMarker.class); // the reader's own marker: the filter lets only what it is told through
        }

        @Override
        protected Object resolveObject(Object obj) throws IOException {
            return obj == LogMarker.LOG ? log : super.resolveObject(obj);
        }
    }

    /**
     * {@code readCoroutine()} restores into a new native {@code Coroutine} (it takes no target):
     * from this suite's engine to the native one. The streams' documented hooks carry the log.
     */
    @Test
    void aSymmetricCoroutineGoesThroughBytes() throws IOException {
        List<String> log = new ArrayList<>();
        Coroutine original = new Coroutine(new Chatter("A", log), engine());
        Coroutine.yield();
        Coroutine.yield();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (LogOutputStream out = new LogOutputStream(bytes, log)) {
            out.writeCoroutine(original);
        }
        original.close();

        List<String> copyLog = new ArrayList<>();
        Coroutine copy;
        try (LogInputStream in = new LogInputStream(new ByteArrayInputStream(bytes.toByteArray()), copyLog)) {
            copy = in.readCoroutine();
        }
        assertSame(Engine.NATIVE, copy.engine());
        yieldUntilFinished(copy);
        assertEquals(CHATTER.subList(2, 4), copyLog);
        assertEquals(CHATTER.subList(0, 2), log);
    }

    // ------------------------------------------------------------ the body comes from the frames

    /**
     * A serializable body with state of its own, suspended two frames deep: the outermost frame
     * is its {@code run} on itself, so the frames name the body a coroutine with none resumes in.
     */
    static final class Tally implements AsymRunnable<Integer, String>, Serializable {
        private static final long serialVersionUID = 1L;

        private final String label;
        private int total;

        Tally(String label) {
            this.label = label;
        }

        @Override
        public String run(AsymCoroutine<? extends Integer, ? super String> self, Integer first) {
            int in = first;
            for (int round = 0; round < 3; round++) {
                total += in;
                in = report(self, round);
            }
            return label + " end " + (total + in);
        }

        private int report(AsymCoroutine<? extends Integer, ? super String> self, int round) {
            return self.ret(label + " " + round + ":" + total);
        }
    }

    private static final List<String> TALLY = List.of("t 0:3", "t 1:13", "t 2:20", "t end 40");

    /** A {@link Tally} on {@code engine}, called {@code k} times with {@link #INPUTS}. */
    private static AsymCoroutine<Integer, String> tallyAt(int k, Engine engine) {
        AsymCoroutine<Integer, String> co = new AsymCoroutine<>(new Tally("t"), engine);
        assertEquals(TALLY.subList(0, k), drive(co, 0, k));
        return co;
    }

    /** Thesis 5.2: bytes read into a coroutine created with no body, of either engine, run the body they hold. */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void anAsymmetricCoroutineGoesThroughBytesIntoOneWithNoBody(Engine target) throws IOException {
        for (int k = 1; k < TALLY.size(); k++) {
            AsymCoroutine<Integer, String> original = tallyAt(k, engine());
            byte[] bytes = write(original);
            AsymCoroutine<Integer, String> copy = read(bytes, new AsymCoroutine<>(target));
            assertSame(target, copy.engine());
            assertEquals(TALLY.subList(k, TALLY.size()), drive(copy, k, TALLY.size()),
                    "read into a " + target + " coroutine with no body after " + k + " calls");
            assertTrue(copy.isFinished());
            assertEquals(TALLY.subList(k, TALLY.size()), drive(original, k, TALLY.size()), "the original");
        }
    }

    /** The frames decide what runs, not the body the coroutine was created with, on both engines. */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void framesGoIntoACoroutineWithAnotherBodyAndRunTheirOwn(Engine target) {
        AsymCoroutine<Integer, String> original = tallyAt(2, engine());
        Tally unused = new Tally("never");
        AsymCoroutine<Integer, String> copy = new AsymCoroutine<>(unused, target);
        copy.deserialize(rehome(original.serialize(), original, copy));
        assertEquals(TALLY.subList(2, TALLY.size()), drive(copy, 2, TALLY.size()));
        assertEquals(0, unused.total, "the body the copy was created with never ran");
        original.close();
    }

    /** A restored coroutine suspends again, is serialized and restored again, into one with no body each time. */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void aCoroutineWithNoBodySuspendsAndGoesOnAgain(Engine target) throws IOException {
        AsymCoroutine<Integer, String> co = tallyAt(1, engine());
        for (int k = 1; k < TALLY.size(); k++) {
            AsymCoroutine<Integer, String> next = read(write(co), new AsymCoroutine<>(k % 2 == 0 ? engine() : target));
            co.close();
            assertEquals(TALLY.subList(k, k + 1), drive(next, k, k + 1), "hop " + k);
            co = next;
        }
        assertTrue(co.isFinished());
    }

    /** A lambda of a woven class: the outermost frame is its static implementation method, with no receiver. */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void aLambdasFramesGoIntoACoroutineWithNoBody(Engine target) {
        AsymRunnable<Integer, String> body = (self, first) -> {
            int total = first;
            for (int round = 0; round < 2; round++) {
                total += self.ret("lambda " + total);
            }
            return "lambda end " + total;
        };
        AsymCoroutine<Integer, String> original = new AsymCoroutine<>(body, engine());
        assertEquals("lambda 3", original.call(3));
        CoroutineFrame[] frames = original.serialize();
        assertTrue(java.lang.reflect.Modifier.isStatic(frames[0].method.getModifiers()), frames[0].toString());
        AsymCoroutine<Integer, String> copy = new AsymCoroutine<>(target);
        copy.deserialize(rehome(frames, original, copy));
        assertEquals(List.of("lambda 13", "lambda end 20"), drive(copy, 1, 3));
        original.close();
    }

    /** The symmetric counterpart: a coroutine created with no {@code Runnable} runs the one its frames hold. */
    @ParameterizedTest
    @EnumSource(Engine.class)
    void aSymmetricCoroutineWithNoBodyRunsTheOneItsFramesHold(Engine target) {
        List<String> log = new ArrayList<>();
        Coroutine original = new Coroutine(new Chatter("A", log), engine());
        Coroutine.yield();
        CoroutineFrame[] frames = original.serialize();
        original.close();
        log.clear();
        Coroutine copy = new Coroutine(target);
        copy.deserialize(rehome(frames, original, copy));
        yieldUntilFinished(copy);
        assertEquals(CHATTER.subList(1, 4), log, "the Chatter of the frames ran on");
    }

    // ------------------------------------------------------------ refusals

    @Test
    void aFinishedCoroutineIsRefused() {
        AsymCoroutine<Integer, String> co = new Accumulating(engine());
        co.setName("done");
        drive(co, 0, INPUTS.size());
        IllegalStateException e = assertThrows(IllegalStateException.class, co::serialize);
        assertEquals("cannot serialize done [finished, thread " + Thread.currentThread().getName() + "]: it has finished",
                e.getMessage());
        IllegalStateException into = assertThrows(IllegalStateException.class, () -> co.deserialize(new CoroutineFrame[0]));
        assertMentions(into.getMessage(), "cannot deserialize into done [finished", "it has finished");
    }

    /** Serializes itself while it runs, and deserializes into itself; returns both refusals' messages. */
    static final class SerializesItself implements AsymRunnable<Void, String> {
        @Override
        public String run(AsymCoroutine<? extends Void, ? super String> self, Void in) {
            String serialize = assertThrows(IllegalArgumentException.class, self::serialize).getMessage();
            String deserialize = assertThrows(IllegalArgumentException.class,
                    () -> self.deserialize(new CoroutineFrame[0])).getMessage();
            return serialize + " / " + deserialize;
        }
    }

    @Test
    void aRunningCoroutineIsRefused() {
        AsymCoroutine<Void, String> co = new AsymCoroutine<>(new SerializesItself(), engine());
        co.setName("busy");
        String here = Thread.currentThread().getName();
        assertEquals("cannot serialize busy [running, thread " + here + "]: it is running"
                + " / cannot deserialize into busy [running, thread " + here + "]: it is running", co.call(null));
        assertTrue(co.isFinished());
    }

    /** Calls {@code inner}. */
    static final class CallsInner implements AsymRunnable<Void, String> {
        private final AsymCoroutine<Void, String> inner;

        CallsInner(AsymCoroutine<Void, String> inner) {
            this.inner = inner;
        }

        @Override
        public String run(AsymCoroutine<? extends Void, ? super String> self, Void in) {
            return inner.call(null);
        }
    }

    /** Serializes the coroutine that calls it; returns the refusal's message. */
    static final class SerializesItsCaller implements AsymRunnable<Void, String> {
        private final AtomicReference<CoroutineBase> caller;

        SerializesItsCaller(AtomicReference<CoroutineBase> caller) {
            this.caller = caller;
        }

        @Override
        public String run(AsymCoroutine<? extends Void, ? super String> self, Void in) {
            return assertThrows(IllegalArgumentException.class, caller.get()::serialize).getMessage();
        }
    }

    @Test
    void aCoroutineInTheMiddleOfCallingAnotherIsRefused() {
        AtomicReference<CoroutineBase> caller = new AtomicReference<>();
        AsymCoroutine<Void, String> inner = new AsymCoroutine<>(new SerializesItsCaller(caller), engine());
        AsymCoroutine<Void, String> outer = new AsymCoroutine<>(new CallsInner(inner), engine());
        outer.setName("caller");
        caller.set(outer);
        assertEquals("cannot serialize caller [calling, thread " + Thread.currentThread().getName()
                + "]: it is in the middle of calling another coroutine", outer.call(null));
    }

    @Test
    void anotherThreadsCoroutineIsRefusedAndGoesOnAtHome() throws Throwable {
        AsymCoroutine<Integer, String> co = suspendedAt(2, engine());
        co.setName("home");
        String here = Thread.currentThread().getName();
        CoroutineFrame[] frames = co.serialize();
        WrongThreadException e = OtherThread.call("intruder", () -> assertThrows(WrongThreadException.class, co::serialize));
        assertEquals("cannot serialize home [suspended, thread " + here + "] from thread intruder: it belongs to thread "
                + here, e.getMessage());
        WrongThreadException into = OtherThread.call("intruder",
                () -> assertThrows(WrongThreadException.class, () -> co.deserialize(frames)));
        assertEquals("cannot deserialize home [suspended, thread " + here + "] from thread intruder: it belongs to thread "
                + here, into.getMessage());
        assertEquals(EXPECTED.subList(2, EXPECTED.size()), drive(co, 2, INPUTS.size()));
    }

    @Test
    void theInitialCoroutineIsRefused() {
        Coroutine initial = Coroutine.current();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, initial::serialize);
        assertEquals("cannot serialize " + initial + ": a thread's initial coroutine is its thread's own stack",
                e.getMessage());
        assertMentions(e.getMessage(), "initial coroutine of " + Thread.currentThread().getName());
        assertFalse(initial.isFinished());
    }
}
