package dev.weft.contract;

import dev.weft.AsymCoroutine;
import dev.weft.Coroutine;
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
 * frame-level mutations of frame arrays, of real coroutines of both engines (half the byte cases
 * written with their sites, format version 2, and read by a reader that accepts changed code). Each case is read
 * (or deserialized) and, if accepted, resumed for the rest of its calls; it is classified as
 * {@code refused <type>} (a documented exception), {@code resumed same} (exactly the original's
 * outputs), {@code resumed changed} (accepted, different outputs: a value changed within its
 * slot's type), {@code body threw after a changed value <type>} (such a value, say a loop
 * counter made negative, made the body's own code throw: only a seal rules this out), or as a
 * failure: {@code undocumented <type>} (refusal of another type), {@code failed after accept
 * <type>} (accepted, then an exception thrown by Weft's code), {@code sealed accepted} (a
 * changed sealed stream read). Prints one line per class, {@code COUNT<TAB>kind<TAB>class<TAB>n}, the
 * same per subject ({@code SUBJECT<TAB>subject<TAB>kind<TAB>class<TAB>n}), then {@code DONE}; a
 * crash or a hang shows as a missing {@code DONE}.
 */
public final class FuzzMain {

    private static final SecretKey KEY = new SecretKeySpec(new byte[32], "HmacSHA256");
    private static final List<Integer> INPUTS = List.of(3, 10, 7, 20, 5);

    private FuzzMain() {
    }

    /**
     * A real coroutine to mutate, of either kind: how to make a fresh one on an engine suspended
     * where the case mutates it, a target to restore it into, how to write and read it, and how
     * to drive one on through the rest of its run.
     */
    private interface Subject {
        String name();

        CoroutineBase suspended(Engine engine);

        /** A fresh coroutine for {@code original}'s frames, and the objects its frames refer to by identity, rehomed. */
        CoroutineBase target(Engine engine, CoroutineBase original, CoroutineFrame[] frames);

        void write(CoroutineOutputStream<Integer, Object> out, CoroutineBase coroutine) throws IOException;

        /** Reads a coroutine from {@code in}, into a fresh one on {@code engine} where the API takes a target. */
        CoroutineBase read(CoroutineInputStream<Integer, Object> in, Engine engine) throws IOException;

        /** The outputs of the rest of a suspended coroutine's run. */
        List<Object> rest(CoroutineBase coroutine);
    }

    /** An asymmetric coroutine suspended after {@code calls} of {@link #INPUTS}, driven on by calls. */
    private record Asymmetric(String name, Function<Engine, AsymCoroutine<Integer, ?>> factory, int calls)
            implements Subject {

        @Override
        public CoroutineBase suspended(Engine engine) {
            AsymCoroutine<Integer, ?> co = factory.apply(engine);
            for (int k = 0; k < calls; k++) {
                co.call(INPUTS.get(k));
            }
            return co;
        }

        @Override
        public CoroutineBase target(Engine engine, CoroutineBase original, CoroutineFrame[] frames) {
            AsymCoroutine<Integer, ?> target = factory.apply(engine);
            SerializationContract.rehome(frames, original, target);
            return target;
        }

        @Override
        public void write(CoroutineOutputStream<Integer, Object> out, CoroutineBase coroutine) throws IOException {
            out.writeAsymCoroutine(cast(coroutine));
        }

        @Override
        public CoroutineBase read(CoroutineInputStream<Integer, Object> in, Engine engine) throws IOException {
            return in.readAsymCoroutine(cast(factory.apply(engine)));
        }

        @Override
        public List<Object> rest(CoroutineBase coroutine) {
            AsymCoroutine<Integer, Object> co = cast(coroutine);
            List<Object> out = new ArrayList<>();
            for (int k = calls; k < INPUTS.size() && !co.isFinished(); k++) {
                out.add(co.call(INPUTS.get(k)));
            }
            return out;
        }
    }

    /**
     * A symmetric coroutine running a {@link Laps}, suspended after {@code yields} yields of the
     * initial coroutine, driven on by yielding until it finishes (at most {@link #MAX_YIELDS}
     * times: a changed lap counter may make it run longer). It reports through {@link #LOG}.
     * {@code readCoroutine()} takes no target: what it reads is always native.
     */
    private record Symmetric(String name, int yields) implements Subject {
        static final int MAX_YIELDS = 12;

        @Override
        public CoroutineBase suspended(Engine engine) {
            Coroutine co = new Coroutine(new Laps(), engine);
            for (int k = 0; k < yields; k++) {
                Coroutine.yield();
            }
            return co;
        }

        @Override
        public CoroutineBase target(Engine engine, CoroutineBase original, CoroutineFrame[] frames) {
            Laps body = new Laps();
            Coroutine target = new Coroutine(body, engine);
            Arrays.stream(frames).flatMap(f -> Arrays.stream(f.objectValues)).filter(Laps.class::isInstance).findFirst()
                    .ifPresent(originalBody -> SerializationContract.rehome(frames, originalBody, body));
            SerializationContract.rehome(frames, original, target);
            return target;
        }

        @Override
        public void write(CoroutineOutputStream<Integer, Object> out, CoroutineBase coroutine) throws IOException {
            out.writeCoroutine((Coroutine) coroutine);
        }

        @Override
        public CoroutineBase read(CoroutineInputStream<Integer, Object> in, Engine engine) throws IOException {
            return in.readCoroutine();
        }

        @Override
        public List<Object> rest(CoroutineBase coroutine) {
            LOG.clear();
            for (int k = 0; k < MAX_YIELDS && !coroutine.isFinished(); k++) {
                Coroutine.yield();
            }
            return List.copyOf(LOG);
        }
    }

    /** What {@link Laps} reports; only the coroutine being driven runs, so it is the only writer. */
    private static final List<Object> LOG = new ArrayList<>();

    /**
     * A symmetric body: a long, a char and an int carried across yields made in a helper method,
     * each lap's line built from them, the total reported at the end.
     */
    static final class Laps implements Runnable, java.io.Serializable {
        private static final long serialVersionUID = 1L;

        @Override
        public void run() {
            long ticks = 1;
            char mark = 'a';
            for (int lap = 0; lap < 4; lap++) {
                ticks = lap(lap, ticks, mark);
                mark++;
            }
            LOG.add("done " + ticks + " " + mark);
        }

        private long lap(int lap, long ticks, char mark) {
            String where = "lap " + lap + mark;
            Coroutine.yield();
            LOG.add(where + " " + ticks);
            return ticks * 3 + lap;
        }
    }

    /**
     * Locals of every kind; a boolean, char and byte; a call through an interface; a recursion;
     * the thesis 5.2 session; a chain through a serializable lambda; a symmetric coroutine.
     */
    private static final List<Subject> SUBJECTS = List.of(
            new Asymmetric("accumulating", SerializationContract.Accumulating::new, 2),
            new Asymmetric("narrow", TamperedFramesContract.Narrow::new, 1),
            new Asymmetric("stepper", e -> new TamperedFramesContract.Stepper(new TamperedFramesContract.Up(), e), 2),
            new Asymmetric("recursion", FrameTransferStateTest.Deep::new, 1),
            new Asymmetric("session", Session::new, 2),
            new Asymmetric("lambda", ThroughLambda::new, 2),
            new Symmetric("laps", 2));

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
        Map<String, Integer> bySubject = new TreeMap<>();
        for (int i = 0; i < cases; i++) {
            Subject subject = SUBJECTS.get(random.nextInt(SUBJECTS.size()));
            Engine from = random.nextBoolean() ? Engine.NATIVE : Engine.WOVEN;
            Engine to = random.nextBoolean() ? Engine.NATIVE : Engine.WOVEN;
            count(counts, bySubject, subject, "sealed bytes", byteCase(subject, from, to, true, random));
            count(counts, bySubject, subject, "unsealed bytes", byteCase(subject, from, to, false, random));
            count(counts, bySubject, subject, "frames", frameCase(subject, from, to, random));
            count(counts, bySubject, subject, "looked-at bytes", lookCase(subject, from, random));
        }
        counts.forEach((key, n) -> System.out.println("COUNT\t" + key + "\t" + n));
        bySubject.forEach((key, n) -> System.out.println("SUBJECT\t" + key + "\t" + n));
        System.out.println("DONE");
    }

    @SuppressWarnings("unchecked")
    private static AsymCoroutine<Integer, Object> cast(CoroutineBase co) {
        return (AsymCoroutine<Integer, Object>) co;
    }

    /** Counts a case's outcome; then no coroutine of the case is left to run at the next one's yields. */
    private static void count(Map<String, Integer> counts, Map<String, Integer> bySubject, Subject subject, String kind,
            String outcome) {
        counts.merge(kind + "\t" + outcome, 1, Integer::sum);
        bySubject.merge(subject.name() + "\t" + kind + "\t" + outcome, 1, Integer::sum);
        CoroutineBase.closeAll();
    }

    private static String byteCase(Subject subject, Engine from, Engine to, boolean sealed, SplittableRandom random)
            throws IOException {
        CoroutineBase original = subject.suspended(from);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        boolean withSites = random.nextBoolean(); // records of version 2, read by a reader that accepts changed code
        try (CoroutineOutputStream<Integer, Object> out = sealed ? new CoroutineOutputStream<>(bytes, KEY)
                : new CoroutineOutputStream<>(bytes)) {
            if (withSites) {
                out.recordSites();
            }
            subject.write(out, original);
        }
        original.close();
        byte[] mutated = mutate(bytes.toByteArray(), random);
        CoroutineBase copy;
        try (CoroutineInputStream<Integer, Object> in = sealed
                ? new CoroutineInputStream<>(new ByteArrayInputStream(mutated), KEY)
                : new CoroutineInputStream<>(new ByteArrayInputStream(mutated))) {
            if (withSites) {
                in.acceptChangedCode();
            }
            copy = subject.read(in, to);
        } catch (StreamCorruptedException | InvalidClassException | InvalidObjectException refused) {
            return "refused " + refused.getClass().getSimpleName();
        } catch (Throwable other) {
            return "undocumented " + other.getClass().getName();
        }
        if (sealed) {
            return "sealed accepted";
        }
        return resumed(copy, subject);
    }

    /**
     * Mutated unsealed bytes read only to be looked at ({@code readFrames}, as a console reads a
     * stored coroutine), then every frame's place and every slot's name, type and value read: a
     * refusal must be documented, and nothing read may fail.
     */
    private static String lookCase(Subject subject, Engine from, SplittableRandom random) throws IOException {
        CoroutineBase original = subject.suspended(from);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (CoroutineOutputStream<Integer, Object> out = new CoroutineOutputStream<>(bytes)) {
            subject.write(out, original);
        }
        CoroutineBase standIn = subject.target(from, original, new CoroutineFrame[0]);
        original.close();
        CoroutineFrame[] frames;
        try (CoroutineInputStream<Integer, Object> in = new CoroutineInputStream<>(
                new ByteArrayInputStream(mutate(bytes.toByteArray(), random)))) {
            frames = in.readFrames(standIn);
        } catch (StreamCorruptedException | InvalidClassException | InvalidObjectException refused) {
            return "refused " + refused.getClass().getSimpleName();
        } catch (Throwable other) {
            return "undocumented " + other.getClass().getName();
        }
        try {
            for (CoroutineFrame frame : frames) {
                frame.toStackTraceElement();
                for (int slot = 0; slot < frame.localCount + frame.expressionCount; slot++) {
                    frame.slotName(slot);
                    frame.slotType(slot);
                    frame.slotValue(slot);
                }
            }
        } catch (Throwable t) {
            System.out.println("FAILED\t" + subject.name() + " looked at: " + t);
            return "failed after accept " + t.getClass().getName();
        }
        return "looked at";
    }

    private static String frameCase(Subject subject, Engine from, Engine to, SplittableRandom random) {
        CoroutineBase original = subject.suspended(from);
        CoroutineFrame[] frames = original.serialize();
        original.close(); // a symmetric one would otherwise run again at the initial coroutine's next yield
        CoroutineBase target = subject.target(to, original, frames);
        mutate(frames, target, random);
        try {
            target.deserialize(frames);
        } catch (IllegalArgumentException refused) {
            return "refused IllegalArgumentException";
        } catch (Throwable other) {
            return "undocumented " + other.getClass().getName();
        }
        return resumed(target, subject);
    }

    /** Drives an accepted copy on and compares its outputs with an unchanged coroutine's on the same engine. */
    private static String resumed(CoroutineBase copy, Subject subject) {
        Engine engine = copy.engine();
        List<Object> outputs;
        try {
            outputs = subject.rest(copy);
        } catch (Throwable t) {
            StackTraceElement top = t.getStackTrace().length > 0 ? t.getStackTrace()[0] : null;
            boolean inLibrary = top == null || top.getClassName().startsWith("dev.weft.")
                    && !top.getClassName().startsWith("dev.weft.contract.");
            System.out.println((inLibrary ? "FAILED\t" : "BODY\t") + subject.name() + " on " + engine + ": " + t + " at " + top);
            return (inLibrary ? "failed after accept " : "body threw after a changed value ") + t.getClass().getName();
        }
        copy.close();
        List<Object> expected = subject.rest(subject.suspended(engine));
        return outputs.equals(expected) ? "resumed same" : "resumed changed";
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
