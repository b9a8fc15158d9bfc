package dev.weft.contract;

import dev.weft.AsymCoroutine;
import dev.weft.CoroutineBase;
import dev.weft.CoroutineFrame;
import dev.weft.CoroutineInputStream;
import dev.weft.CoroutineOutputStream;
import dev.weft.Engine;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InvalidClassException;
import java.io.InvalidObjectException;
import java.io.StreamCorruptedException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.function.Function;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;

/**
 * The fuzz campaign's child JVM ({@link FuzzTest} starts it; {@code main} takes the number of
 * cases per kind and a seed): byte-level mutations of sealed and unsealed streams, and
 * frame-level mutations of frame arrays, of real coroutines of both engines. Each case is read
 * (or deserialized) and, if accepted, resumed for the rest of its calls; it is classified as
 * {@code refused <type>} (a documented exception), {@code resumed same} (exactly the original's
 * outputs), {@code resumed changed} (accepted, different outputs: a value changed within its
 * slot's type), {@code body threw after a changed value <type>} (such a value, say a loop
 * counter made negative, made the body's own code throw: only a seal rules this out), or as a
 * failure: {@code undocumented <type>} (refusal of another type), {@code failed after accept
 * <type>} (accepted, then an exception thrown by Weft's code), {@code sealed accepted} (a
 * changed sealed stream read). Prints one line per class, {@code COUNT<TAB>kind<TAB>class<TAB>n}, then
 * {@code DONE}; a crash or a hang shows as a missing {@code DONE}.
 */
public final class FuzzMain {

    private static final SecretKey KEY = new SecretKeySpec(new byte[32], "HmacSHA256");
    private static final List<Integer> INPUTS = List.of(3, 10, 7, 20, 5);

    private FuzzMain() {
    }

    /** A real coroutine to mutate: how to make a fresh one on an engine, suspended after some calls, and drive it. */
    private record Subject(String name, Function<Engine, AsymCoroutine<Integer, ?>> factory, int calls) {
    }

    /**
     * Locals of every kind; a boolean, char and byte; a call through an interface; a recursion;
     * the thesis 5.2 session; a chain through a serializable lambda.
     */
    private static final List<Subject> SUBJECTS = List.of(
            new Subject("accumulating", SerializationContract.Accumulating::new, 2),
            new Subject("narrow", TamperedFramesContract.Narrow::new, 1),
            new Subject("stepper", e -> new TamperedFramesContract.Stepper(new TamperedFramesContract.Up(), e), 2),
            new Subject("recursion", FrameTransferStateTest.Deep::new, 1),
            new Subject("session", Session::new, 2),
            new Subject("lambda", ThroughLambda::new, 2));

    /**
     * Suspended through a serializable lambda, which takes the coroutine as an argument (a
     * lambda that captured it would keep the original in a frame-level copy, where nothing
     * replaces it: the bytes do).
     */
    static final class ThroughLambda extends AsymCoroutine<Integer, Integer> {
        interface Step extends java.io.Serializable {
            int apply(ThroughLambda self, int x);
        }

        ThroughLambda(Engine engine) {
            super(engine);
        }

        @Override
        protected Integer run(Integer first) {
            Step step = (self, x) -> self.ret(x + 1000);
            int x = first;
            while (true) {
                x = step.apply(this, x) * 2;
            }
        }
    }

    /**
     * The thesis 5.2 session's shape: questions asked in turn, the answers kept in locals of
     * several types until the summary, which a skipped or repeated step would change.
     */
    static final class Session extends AsymCoroutine<Integer, Object> {
        Session(Engine engine) {
            super(engine);
        }

        @Override
        protected Object run(Integer first) {
            String name = "name-" + first;
            String country = "country-" + ret("Country?");
            int age = ret("Age?");
            boolean adult = age >= 18;
            String email = "mail-" + ret("Email?");
            return "Name: " + name + ", Country: " + country + ", Age: " + age + (adult ? " (adult)" : "")
                    + ", Email: " + email;
        }
    }

    public static void main(String[] args) throws Exception {
        int cases = Integer.parseInt(args[0]);
        SplittableRandom random = new SplittableRandom(Long.parseLong(args[1]));
        Map<String, Integer> counts = new TreeMap<>();
        for (int i = 0; i < cases; i++) {
            Subject subject = SUBJECTS.get(random.nextInt(SUBJECTS.size()));
            Engine from = random.nextBoolean() ? Engine.NATIVE : Engine.WOVEN;
            Engine to = random.nextBoolean() ? Engine.NATIVE : Engine.WOVEN;
            count(counts, "sealed bytes", byteCase(subject, from, to, true, random));
            count(counts, "unsealed bytes", byteCase(subject, from, to, false, random));
            count(counts, "frames", frameCase(subject, from, to, random));
            CoroutineBase.closeAll();
        }
        counts.forEach((key, n) -> System.out.println("COUNT\t" + key + "\t" + n));
        System.out.println("DONE");
    }

    @SuppressWarnings("unchecked")
    private static AsymCoroutine<Integer, Object> cast(AsymCoroutine<Integer, ?> co) {
        return (AsymCoroutine<Integer, Object>) co;
    }

    private static void count(Map<String, Integer> counts, String kind, String outcome) {
        counts.merge(kind + "\t" + outcome, 1, Integer::sum);
    }

    /** The outputs of the rest of the calls of a coroutine suspended after {@code from} calls. */
    private static List<Object> drive(AsymCoroutine<Integer, ?> co, int from) {
        List<Object> out = new ArrayList<>();
        for (int k = from; k < INPUTS.size() && !co.isFinished(); k++) {
            out.add(co.call(INPUTS.get(k)));
        }
        return out;
    }

    private static AsymCoroutine<Integer, ?> suspended(Subject subject, Engine engine) {
        AsymCoroutine<Integer, ?> co = subject.factory().apply(engine);
        for (int k = 0; k < subject.calls(); k++) {
            co.call(INPUTS.get(k));
        }
        return co;
    }

    private static List<Object> expected(Subject subject, Engine engine) {
        return drive(suspended(subject, engine), subject.calls());
    }

    private static String byteCase(Subject subject, Engine from, Engine to, boolean sealed, SplittableRandom random)
            throws IOException {
        AsymCoroutine<Integer, ?> original = suspended(subject, from);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (CoroutineOutputStream<Integer, Object> out = sealed ? new CoroutineOutputStream<>(bytes, KEY)
                : new CoroutineOutputStream<>(bytes)) {
            out.writeAsymCoroutine(cast(original));
        }
        byte[] mutated = mutate(bytes.toByteArray(), random);
        AsymCoroutine<Integer, ?> target = subject.factory().apply(to);
        try (CoroutineInputStream<Integer, Object> in = sealed
                ? new CoroutineInputStream<>(new ByteArrayInputStream(mutated), KEY)
                : new CoroutineInputStream<>(new ByteArrayInputStream(mutated))) {
            in.readAsymCoroutine(cast(target));
        } catch (StreamCorruptedException | InvalidClassException | InvalidObjectException refused) {
            return "refused " + refused.getClass().getSimpleName();
        } catch (Throwable other) {
            return "undocumented " + other.getClass().getName();
        }
        if (sealed) {
            return "sealed accepted";
        }
        return resumed(target, subject, to);
    }

    private static String frameCase(Subject subject, Engine from, Engine to, SplittableRandom random) {
        AsymCoroutine<Integer, ?> original = suspended(subject, from);
        AsymCoroutine<Integer, ?> target = subject.factory().apply(to);
        CoroutineFrame[] frames = original.serialize();
        for (CoroutineFrame f : frames) {
            for (int s = 0; s < f.objectValues.length; s++) {
                if (f.objectValues[s] == original) {
                    f.objectValues[s] = target;
                }
            }
        }
        mutate(frames, target, random);
        try {
            target.deserialize(frames);
        } catch (IllegalArgumentException refused) {
            return "refused IllegalArgumentException";
        } catch (Throwable other) {
            return "undocumented " + other.getClass().getName();
        }
        return resumed(target, subject, to);
    }

    private static String resumed(AsymCoroutine<Integer, ?> copy, Subject subject, Engine to) {
        List<Object> outputs;
        try {
            outputs = drive(copy, subject.calls());
        } catch (Throwable t) {
            StackTraceElement top = t.getStackTrace().length > 0 ? t.getStackTrace()[0] : null;
            boolean inLibrary = top == null || top.getClassName().startsWith("dev.weft.")
                    && !top.getClassName().startsWith("dev.weft.contract.");
            System.out.println((inLibrary ? "FAILED\t" : "BODY\t") + subject.name() + " on " + to + ": " + t + " at " + top);
            return (inLibrary ? "failed after accept " : "body threw after a changed value ") + t.getClass().getName();
        }
        return outputs.equals(expected(subject, to)) ? "resumed same" : "resumed changed";
    }

    /** One to three random changes: flip a bit, set a byte, cut the end, drop or insert a byte. */
    private static byte[] mutate(byte[] bytes, SplittableRandom random) {
        byte[] out = bytes.clone(); // changed in place below: the original stays as it was, to compare with
        int changes = 1 + random.nextInt(3);
        for (int c = 0; c < changes && out.length > 0; c++) {
            int at = random.nextInt(out.length);
            switch (random.nextInt(5)) {
                case 0 -> out[at] ^= (byte) (1 << random.nextInt(8));
                case 1 -> out[at] = (byte) random.nextInt(256);
                case 2 -> out = Arrays.copyOf(out, at);
                case 3 -> {
                    byte[] shorter = new byte[out.length - 1];
                    System.arraycopy(out, 0, shorter, 0, at);
                    System.arraycopy(out, at + 1, shorter, at, out.length - at - 1);
                    out = shorter;
                }
                default -> {
                    byte[] longer = new byte[out.length + 1];
                    System.arraycopy(out, 0, longer, 0, at);
                    longer[at] = (byte) random.nextInt(256);
                    System.arraycopy(out, at, longer, at + 1, out.length - at);
                    out = longer;
                }
            }
        }
        if (Arrays.equals(out, bytes)) {
            out = Arrays.copyOf(bytes, bytes.length);
            out[random.nextInt(out.length)] ^= 1;
        }
        return out;
    }

    /** One random change to the frames: a bci, a scalar, a reference swapped, nulled, or a frame's method. */
    private static void mutate(CoroutineFrame[] frames, Object coroutine, SplittableRandom random) {
        CoroutineFrame f = frames[random.nextInt(frames.length)];
        int slots = f.scalarValues.length;
        switch (random.nextInt(6)) {
            case 0 -> f.bci += random.nextInt(-20, 21);
            case 1 -> {
                if (slots > 0) {
                    f.scalarValues[random.nextInt(slots)] += random.nextInt(-3, 4) * (random.nextBoolean() ? 1 : 1L << 33);
                }
            }
            case 2 -> {
                if (slots > 1) {
                    int a = random.nextInt(slots);
                    int b = random.nextInt(slots);
                    Object t = f.objectValues[a];
                    f.objectValues[a] = f.objectValues[b];
                    f.objectValues[b] = t;
                }
            }
            case 3 -> {
                if (slots > 0) {
                    f.objectValues[random.nextInt(slots)] = random.nextBoolean() ? null : coroutine;
                }
            }
            case 4 -> f.method = frames[random.nextInt(frames.length)].method;
            default -> {
                if (slots > 0) {
                    f.objectValues[random.nextInt(slots)] = "a string";
                }
            }
        }
    }
}
