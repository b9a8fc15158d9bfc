package dev.weft.weaver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.AsymCoroutine;
import dev.weft.CoroutineFrame;
import dev.weft.CoroutineInputStream;
import dev.weft.CoroutineOutputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Runs woven fixtures once straight through (the reference) and again with a serialization in
 * the middle, and compares every output. Outputs are the values an {@code AsymCoroutine<Integer,
 * String>} passes to {@code ret}, then the value its {@code run} returns.
 */
final class Replay {

    private Replay() {
    }

    /** Calls {@code co} with each input in turn until it finishes; its outputs. */
    static List<String> drive(AsymCoroutine<Integer, String> co, List<Integer> inputs) {
        List<String> out = new ArrayList<>();
        for (int input : inputs) {
            if (co.isFinished()) {
                break;
            }
            out.add(co.call(input));
        }
        return out;
    }

    /** The outputs of a run of a fresh coroutine that must finish within {@code inputs}. */
    static List<String> reference(Supplier<AsymCoroutine<Integer, String>> factory, List<Integer> inputs) {
        AsymCoroutine<Integer, String> co = factory.get();
        List<String> expected = drive(co, inputs);
        assertTrue(co.isFinished(), "the reference run must finish within its inputs; it produced " + expected);
        return expected;
    }

    /**
     * The frames reference the coroutines they came from; a copy must reference the new ones
     * instead (thesis 5.2, done by hand here rather than by an object stream).
     */
    static CoroutineFrame[] rehome(CoroutineFrame[] frames, Map<Object, Object> replacements) {
        for (CoroutineFrame frame : frames) {
            for (int i = 0; i < frame.objectValues.length; i++) {
                Object replacement = replacements.get(frame.objectValues[i]);
                if (replacement != null) {
                    frame.objectValues[i] = replacement;
                }
            }
        }
        return frames;
    }

    static CoroutineFrame[] rehome(CoroutineFrame[] frames, Object from, Object to) {
        Map<Object, Object> replacements = new IdentityHashMap<>();
        replacements.put(from, to);
        return rehome(frames, replacements);
    }

    /** Serializes {@code original} and deserializes its frames into a fresh coroutine from {@code factory}. */
    static AsymCoroutine<Integer, String> copy(AsymCoroutine<Integer, String> original,
            Supplier<AsymCoroutine<Integer, String>> factory) {
        CoroutineFrame[] frames = original.serialize();
        assertTrue(frames.length > 0, "a suspended coroutine has frames");
        AsymCoroutine<Integer, String> copy = factory.get();
        copy.deserialize(rehome(frames, original, copy));
        return copy;
    }

    /**
     * Writes {@code original} with a {@code CoroutineOutputStream} and reads the bytes back into a
     * fresh coroutine from {@code factory}, resolving classes through the loader of the woven code
     * that {@code original} is suspended in (the coroutine's own class may be Weft's).
     */
    static AsymCoroutine<Integer, String> copyThroughBytes(AsymCoroutine<Integer, String> original,
            Supplier<AsymCoroutine<Integer, String>> factory) {
        try {
            byte[] bytes = write(original);
            ClassLoader wovenCode = original.serialize()[0].method.getDeclaringClass().getClassLoader();
            return read(bytes, wovenCode, factory.get());
        } catch (IOException e) {
            throw new UncheckedIOException("copying " + original + " through bytes", e);
        }
    }

    /** {@code co} written by a {@code CoroutineOutputStream}. */
    static byte[] write(AsymCoroutine<Integer, String> co) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (CoroutineOutputStream<Integer, String> out = new CoroutineOutputStream<>(bytes)) {
            out.writeAsymCoroutine(co);
        }
        return bytes.toByteArray();
    }

    /** {@code bytes} read by a {@code CoroutineInputStream} into {@code target}, resolving classes through {@code classes}. */
    static AsymCoroutine<Integer, String> read(byte[] bytes, ClassLoader classes, AsymCoroutine<Integer, String> target)
            throws IOException {
        try (CoroutineInputStream<Integer, String> in = new CoroutineInputStream<>(new ByteArrayInputStream(bytes), classes)) {
            return in.readAsymCoroutine(target);
        }
    }

    /**
     * For every suspension the reference run passes through: runs a fresh coroutine up to it,
     * serializes it there, and deserializes it into two other fresh coroutines, one from its
     * frames and one through bytes, and runs each to the end; then runs the original to the end
     * too, which serializing must not have disturbed. Every output must be the reference run's.
     * The fixture must keep no shared mutable state.
     *
     * @return how many suspensions were tried
     */
    static int everySuspension(Supplier<AsymCoroutine<Integer, String>> factory, List<Integer> inputs) {
        List<String> expected = reference(factory, inputs);
        int n = expected.size();
        for (int k = 1; k < n; k++) {
            AsymCoroutine<Integer, String> original = factory.get();
            assertEquals(expected.subList(0, k), drive(original, inputs.subList(0, k)), "before suspension " + k);
            assertFalse(original.isFinished());
            List<Integer> rest = inputs.subList(k, inputs.size());
            AsymCoroutine<Integer, String> copy = copy(original, factory);
            assertEquals(expected.subList(k, n), drive(copy, rest), "the copy from frames, restored at suspension " + k);
            assertTrue(copy.isFinished(), "the copy from frames restored at suspension " + k + " finishes");
            AsymCoroutine<Integer, String> read = copyThroughBytes(original, factory);
            assertEquals(expected.subList(k, n), drive(read, rest), "the copy through bytes, restored at suspension " + k);
            assertTrue(read.isFinished(), "the copy through bytes restored at suspension " + k + " finishes");
            assertEquals(expected.subList(k, n), drive(original, rest), "the original, serialized at suspension " + k);
        }
        return n - 1;
    }

    /** Inputs {@code 1..count} scrambled a little, so that paths depending on them vary. */
    static List<Integer> inputs(int count) {
        List<Integer> inputs = new ArrayList<>();
        for (int i = 1; i <= count; i++) {
            inputs.add(i * 7 % 11 + i);
        }
        return inputs;
    }
}
