package dev.weft.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.AsymCoroutine;
import dev.weft.CoroutineFrame;
import dev.weft.Engine;
import java.io.Serializable;
import java.util.Arrays;
import java.util.function.IntUnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * Frames changed into a state the code could never reach are refused by {@code deserialize},
 * naming the frame and why, and the coroutine deserialized into is left as it was: a call that
 * reaches another method than the next frame's, a receiver swapped for another implementation,
 * a lambda swapped for another, a boolean, char, byte or short out of its Java type's range (the
 * type its LocalVariableTable declares, even where a constant set it), a null {@code this} or
 * receiver, a ret made on another coroutine. Each case is first shown to be a legitimate frame
 * array that resumes correctly as it was captured.
 */
abstract class TamperedFramesContract extends EngineContract {

    /** One step of a computation, behind an interface: which implementation runs is the receiver's. */
    interface Step extends Serializable {
        int apply(AsymCoroutine<Integer, Integer> self, int x);
    }

    /** Passes out x + 1. */
    static final class Up implements Step {
        @Override
        public int apply(AsymCoroutine<Integer, Integer> self, int x) {
            return self.ret(x + 1);
        }
    }

    /** Passes out x - 1. */
    static final class Down implements Step {
        @Override
        public int apply(AsymCoroutine<Integer, Integer> self, int x) {
            return self.ret(x - 1);
        }
    }

    /** Calls its step for ever. */
    static final class Stepper extends AsymCoroutine<Integer, Integer> {
        private final Step step;

        Stepper(Step step, Engine engine) {
            super(engine);
            this.step = step;
        }

        @Override
        protected Integer run(Integer first) {
            int x = first;
            Step s = step;
            while (true) {
                x = s.apply(this, x);
            }
        }
    }

    /** Keeps a boolean, a char and a byte across its rets, each from where the JVM guarantees its range. */
    static final class Narrow extends AsymCoroutine<Integer, String> {
        Narrow(Engine engine) {
            super(engine);
        }

        private static boolean isOdd(int n) {
            return (n & 1) == 1;
        }

        @Override
        protected String run(Integer first) {
            boolean odd = isOdd(first);
            char mark = "xyz".charAt(first % 3);
            byte low = (byte) (first * 37);
            while (true) {
                first = ret(odd + " " + mark + " " + low);
            }
        }
    }

    /**
     * Keeps a boolean, a byte, a char and a short, each set from a constant, across its rets: the
     * constants alone cannot tell their types (90 is a byte's as well as a char's), the class's
     * LocalVariableTable does.
     */
    static final class FromConstants extends AsymCoroutine<Integer, String> {
        static final String UNTAMPERED = "true 100 Z 30000";

        FromConstants(Engine engine) {
            super(engine);
        }

        @Override
        protected String run(Integer first) {
            boolean flag = true;
            byte low = 100;
            char mark = 'Z';
            short wide = 30000;
            while (true) {
                first = ret(flag + " " + low + " " + mark + " " + wide);
            }
        }
    }

    /** Hands itself through a serializable lambda chosen by {@code which}. */
    static final class ThroughLambda extends AsymCoroutine<Integer, Integer> {
        interface Op extends IntUnaryOperator, Serializable {
        }

        private final int which;

        ThroughLambda(int which, Engine engine) {
            super(engine);
            this.which = which;
        }

        @Override
        protected Integer run(Integer first) {
            Op plus = x -> ret(x + 1000);
            Op times = x -> ret(x * 1000);
            Op op = which == 0 ? plus : times;
            int x = first;
            while (true) {
                x = op.applyAsInt(x);
            }
        }
    }

    // ------------------------------------------------------------ helpers


    /** Asserts that {@code copy} refuses {@code frames} with a message that has each of {@code parts}, and stays new. */
    static void assertRefused(AsymCoroutine<?, ?> copy, CoroutineFrame[] frames, String... parts) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> copy.deserialize(frames));
        assertMentions(e.getMessage(), parts);
        assertEquals(0, copy.serialize().length, "the coroutine is untouched: still new");
    }

    /** The index of the frame of {@code method}, counting from the innermost. */
    static int innermostOf(CoroutineFrame[] frames, String method) {
        for (int i = frames.length - 1; i >= 0; i--) {
            if (frames[i].method.getName().equals(method)) {
                return i;
            }
        }
        throw new AssertionError("no frame of " + method + " in " + Arrays.toString(frames));
    }

    private Stepper stepperAfterOneCall(Step step) {
        Stepper co = new Stepper(step, engine());
        assertEquals(2, co.call(1));
        return co;
    }

    // ------------------------------------------------------------ the cases

    @Test
    void untamperedFramesResumeAsCaptured() {
        Stepper original = stepperAfterOneCall(new Up());
        Stepper copy = new Stepper(new Up(), engine());
        copy.deserialize(SerializationContract.rehome(original.serialize(), original, copy));
        assertEquals(11, copy.call(10));
    }

    /** Cause a: the receiver of a virtual call swapped for another implementation of its interface. */
    @Test
    void aReceiverSwappedForAnotherImplementationIsRefused() {
        Stepper original = stepperAfterOneCall(new Up());
        Stepper copy = new Stepper(new Up(), engine());
        CoroutineFrame[] frames = SerializationContract.rehome(original.serialize(), original, copy);
        int run = innermostOf(frames, "run");
        Up up = (Up) frames[run + 1].objectValues[0];
        SerializationContract.rehome(frames, up, new Down());
        frames[run + 1].objectValues[0] = up; // the next frame stays Up's
        assertRefused(copy, frames, "frame " + run + " of", "which reaches " + Down.class.getName() + ".apply",
                "frame " + (run + 1) + " is " + Up.class.getName() + ".apply", "do not chain");
    }

    /**
     * The local a call's receiver was loaded from, and which still holds it, given another object
     * than the receiver: the code could never have that, and the woven engine saves the receiver
     * once, as the local.
     */
    @Test
    void aLocalThatNoLongerHoldsItsCallsReceiverIsRefused() {
        Stepper original = stepperAfterOneCall(new Up());
        Stepper copy = new Stepper(new Up(), engine());
        CoroutineFrame[] frames = SerializationContract.rehome(original.serialize(), original, copy);
        int run = innermostOf(frames, "run");
        int local = slotOf(frames[run], Up.class);
        frames[run].objectValues[local] = new Up(); // the receiver and the callee's this stay the old Up
        assertRefused(copy, frames, "frame " + run + " of", "stack slot " + (frames[run].objectValues.length - 1)
                + ", local slot " + local + ") has a receiver for its call of",
                "that is not the object in local s, from which its code loaded it");
    }

    /** Cause a: the innermost frame relabelled as another class's method of the same name and descriptor. */
    @Test
    void aFrameRelabelledAsAnotherClassesMethodIsRefused() throws NoSuchMethodException {
        Stepper original = stepperAfterOneCall(new Up());
        Stepper copy = new Stepper(new Up(), engine());
        CoroutineFrame[] frames = SerializationContract.rehome(original.serialize(), original, copy);
        int apply = innermostOf(frames, "apply");
        frames[apply].method = Down.class.getDeclaredMethod("apply", AsymCoroutine.class, int.class);
        frames[apply].objectValues[0] = new Down();
        assertRefused(copy, frames, "frame " + (apply - 1) + " of", "which reaches " + Up.class.getName() + ".apply",
                "do not chain");
    }

    /** Cause c: a boolean of 2, a char past 65535, a byte of 300. */
    @Test
    void narrowIntsOutOfTheirRangeAreRefused() {
        Narrow original = new Narrow(engine());
        assertEquals("true y 37", original.call(1));
        CoroutineFrame[] captured = original.serialize();
        int run = innermostOf(captured, "run");
        long[][] cases = {{1, 2}, {'y', 70_000}, {37, 300}};
        String[] kinds = {"boolean", "char", "byte"};
        String[] names = {"odd", "mark", "low"};
        for (int k = 0; k < cases.length; k++) {
            Narrow copy = new Narrow(engine());
            CoroutineFrame[] frames = SerializationContract.rehome(original.serialize(), original, copy);
            int slot = slotHolding(frames[run], cases[k][0]);
            frames[run].scalarValues[slot] = cases[k][1];
            assertRefused(copy, frames, "local " + names[k] + " (bci ", "local slot " + slot + ") holds " + cases[k][1],
                    "does not fit its " + kinds[k]);
        }
        Narrow copy = new Narrow(engine());
        copy.deserialize(SerializationContract.rehome(captured, original, copy));
        assertEquals("true y 37", copy.call(5), "untampered, the same frames resume");
    }

    /** Cause c: a boolean of 0 or 1 is restored, of 2 refused. */
    @Test
    void aBooleanLocalAcceptsExactlyFalseAndTrue() {
        assertTypeRange(1, "boolean", 2, 0, "false 100 Z 30000");
    }

    /** Cause c: a byte of -1 is restored, of 128 refused. */
    @Test
    void aByteLocalAcceptsExactlyTheBytes() {
        assertTypeRange(100, "byte", 128, -1, "true -1 Z 30000");
    }

    /** Cause c: a char set to 'Z' (a bipush, as a byte's would be) refuses -1 and restores 65535. */
    @Test
    void aCharLocalAcceptsExactlyTheChars() {
        assertTypeRange('Z', "char", -1, 65_535, "true 100 \uffff 30000");
    }

    /** Cause c: a short set to 30000 (a sipush, as a char's would be) refuses 40000 and restores -30000. */
    @Test
    void aShortLocalAcceptsExactlyTheShorts() {
        assertTypeRange(30_000, "short", 40_000, -30_000, "true 100 Z -30000");
    }

    /**
     * The local of {@link FromConstants} that holds {@code original}, of Java type {@code type},
     * changed to {@code refused} is refused naming the frame and slot; changed to
     * {@code accepted}, it is restored, and the body goes on with it, giving {@code output}.
     */
    private void assertTypeRange(long original, String type, long refused, long accepted, String output) {
        FromConstants first = new FromConstants(engine());
        assertEquals(FromConstants.UNTAMPERED, first.call(0));
        FromConstants copy = new FromConstants(engine());
        CoroutineFrame[] frames = SerializationContract.rehome(first.serialize(), first, copy);
        int run = innermostOf(frames, "run");
        int slot = slotHolding(frames[run], original);
        frames[run].scalarValues[slot] = refused;
        String name = switch (type) {
            case "boolean" -> "flag";
            case "byte" -> "low";
            case "char" -> "mark";
            default -> "wide";
        };
        assertRefused(copy, frames, "frame " + run + " of ", "local " + name + " (bci ", "local slot " + slot + ") holds "
                + refused + ", which does not fit its " + type);
        frames = SerializationContract.rehome(first.serialize(), first, copy);
        frames[run].scalarValues[slot] = accepted;
        copy.deserialize(frames);
        assertEquals(output, copy.call(1));
    }

    private static int slotHolding(CoroutineFrame frame, long value) {
        for (int slot = 0; slot < frame.localCount; slot++) {
            if (frame.objectValues[slot] == null && frame.scalarValues[slot] == value) {
                return slot;
            }
        }
        throw new AssertionError("no local holds " + value + " in " + frame);
    }

    /** Cause d: a null this and a null receiver; and a null where the code never has one (a new array, say). */
    @Test
    void nullReceiversAreRefused() {
        Stepper original = stepperAfterOneCall(new Up());
        Stepper copy = new Stepper(new Up(), engine());
        CoroutineFrame[] frames = SerializationContract.rehome(original.serialize(), original, copy);
        int apply = innermostOf(frames, "apply");
        frames[apply].objectValues[0] = null;
        assertRefused(copy, frames, "frame " + apply + " of", "local slot 0) has a null this");
        frames = SerializationContract.rehome(original.serialize(), original, copy);
        CoroutineFrame run = frames[apply - 1];
        run.objectValues[run.objectValues.length - 1] = null;
        assertRefused(copy, frames, "frame " + (apply - 1) + " of", "holds null, which the code never leaves there",
                "the receiver of its call of");
    }

    /**
     * The local a call's receiver was loaded from holds no null while the call is in progress
     * (the call was dispatched on it): the step the stepper calls, nulled, is refused, though
     * it was read from a field.
     */
    @Test
    void aNullInTheLocalACallInProgressWasMadeOnIsRefused() {
        Stepper original = stepperAfterOneCall(new Up());
        Stepper copy = new Stepper(new Up(), engine());
        CoroutineFrame[] frames = SerializationContract.rehome(original.serialize(), original, copy);
        int run = innermostOf(frames, "run");
        frames[run].objectValues[slotOf(frames[run], Up.class)] = null; // its local s
        assertRefused(copy, frames, "frame " + run + " of", "holds null, which the code never leaves there");
    }

    /** Keeps a label read from a field, which the code may find null, across its rets. */
    static final class Labeller extends AsymCoroutine<Integer, Integer> {
        private final String label;

        Labeller(String label, Engine engine) {
            super(engine);
            this.label = label;
        }

        @Override
        protected Integer run(Integer first) {
            String l = label;
            int x = first;
            while (true) {
                x = ret(x + l.length());
            }
        }
    }

    /**
     * A state with a null where the code may have one (the label, read from a field) is not
     * refused; resumed, it throws the JVM's own NullPointerException from the body's frame, on
     * either engine.
     */
    @Test
    void aNullTheCodeMayHaveResumesAndFailsAsTheJvmWould() {
        Labeller original = new Labeller("abc", engine());
        assertEquals(4, original.call(1));
        Labeller copy = new Labeller("abc", engine());
        CoroutineFrame[] frames = SerializationContract.rehome(original.serialize(), original, copy);
        int run = innermostOf(frames, "run");
        frames[run].objectValues[slotOf(frames[run], String.class)] = null; // its local l
        copy.deserialize(frames);
        NullPointerException e = assertThrows(NullPointerException.class, () -> copy.call(10));
        StackTraceElement thrower = Arrays.stream(e.getStackTrace())
                .filter(f -> !f.getClassName().startsWith("java.lang.invoke.")).findFirst().orElseThrow();
        assertEquals(Labeller.class.getName(), thrower.getClassName(), Arrays.toString(e.getStackTrace()));
    }

    private static int slotOf(CoroutineFrame frame, Class<?> type) {
        for (int slot = 0; slot < frame.localCount; slot++) {
            if (type.isInstance(frame.objectValues[slot])) {
                return slot;
            }
        }
        throw new AssertionError("no local holds a " + type.getName() + " in " + frame);
    }

    /** The innermost ret made on another coroutine than the one deserialized into. */
    @Test
    void aRetOnAnotherCoroutineIsRefused() {
        Stepper original = stepperAfterOneCall(new Up());
        Stepper copy = new Stepper(new Up(), engine());
        CoroutineFrame[] frames = SerializationContract.rehome(original.serialize(), original, copy);
        CoroutineFrame innermost = frames[frames.length - 1];
        innermost.objectValues[innermost.objectValues.length - 1] = new Stepper(new Up(), engine());
        assertRefused(copy, frames, "is the innermost frame, but its ret is made on another coroutine");
    }

    /**
     * Cause b: frames suspended through a lambda (on the woven engine, one the weaver
     * bootstrapped, whose implementation's twin it calls): a swap of the lambda for another one
     * of the same class is refused, and the frames as captured resume.
     */
    @Test
    void framesThroughALambdaAreCheckedAgainstItsImplementation() {
        ThroughLambda original = new ThroughLambda(0, engine());
        assertEquals(1001, original.call(1));
        ThroughLambda other = new ThroughLambda(1, engine());
        assertEquals(1000, other.call(1));
        CoroutineFrame[] swapped = original.serialize();
        SerializationContract.rehome(swapped, proxyOf(swapped), proxyOf(other.serialize()));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> original.deserialize(swapped));
        assertMentions(e.getMessage(), "through a lambda or method reference", "whose implementation is not frame");
        assertEquals(1007, original.call(7), "refused: it goes on as it was");
        original.deserialize(original.serialize()); // its own frames: the lambda it keeps calling captured it
        assertEquals(1009, original.call(9));
    }

    /** The lambda's proxy the frames call through: the receiver of the run frame's call. */
    private static Object proxyOf(CoroutineFrame[] frames) {
        CoroutineFrame run = frames[innermostOf(frames, "run")];
        return run.objectValues[run.objectValues.length - 1];
    }
}
