package dev.weft.jdk17.woven;

import dev.weft.AsymCoroutine;
import dev.weft.Coroutine;
import dev.weft.CoroutineBase;
import dev.weft.CoroutineInputStream;
import dev.weft.CoroutineOutputStream;
import dev.weft.Engine;
import dev.weft.jdk17.loadtime.Countdown;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.Supplier;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;

/**
 * What weft-jdk17-test's test runs in a JDK 17 with no JVM option, {@code dev.weft.jdk17.loadtime}
 * woven after the build (by the agent as it loads, or by the weaver's command line): one line
 * per check, on standard output, which the test compares with what it expects. Any failure ends
 * it with an exception, and a non-zero status.
 */
public final class Jdk17Check {

    private Jdk17Check() {
    }

    public static void main(String[] args) throws Exception {
        System.out.println("JDK " + Runtime.version() + " at " + System.getProperty("java.home")
                + ", default engine " + Engine.defaultEngine());
        System.out.println("symmetric: " + symmetric());
        System.out.println("asymmetric: " + asymmetric());
        System.out.println("deep: " + deep());
        System.out.println("serialized: " + serialized());
        System.out.println("woven after the build: " + wovenAfterTheBuild());
        System.out.println("from another thread: " + fromAnotherThread());
        System.out.println("array clones: " + arrayClones());
        System.out.println("native engine: " + refusal(() -> new AsymCoroutine<Void, Integer>((self, in) -> 1, Engine.NATIVE)));
        Engine.setDefault(Engine.NATIVE);
        System.out.println("native engine by default: " + refusal(Squares::new));
        Engine.setDefault(Engine.WOVEN);
        System.out.println("after the refusals: " + asymmetric());
    }

    /** Two woven coroutines, lambdas, taking turns with the thread round the ring. */
    private static String symmetric() {
        List<String> turns = new ArrayList<>();
        new Coroutine(() -> takeTurns("a", turns));
        new Coroutine(() -> takeTurns("b", turns));
        for (int i = 0; i < 4; i++) {
            Coroutine.yield();
        }
        return String.join(" ", turns);
    }

    private static void takeTurns(String name, List<String> turns) {
        for (int i = 1; i <= 3; i++) {
            turns.add(name + i);
            Coroutine.yield();
        }
    }

    private static String asymmetric() {
        Squares squares = new Squares();
        StringJoiner values = new StringJoiner(" ");
        for (int i = 0; i < 5; i++) {
            values.add(String.valueOf(squares.call(null)));
        }
        squares.close();
        return values.toString();
    }

    /** A generator suspended several frames down, called to its end. */
    private static String deep() {
        Levels levels = new Levels();
        StringJoiner lines = new StringJoiner(", ");
        while (!levels.isFinished()) {
            lines.add(levels.call(null));
        }
        return lines.toString();
    }

    /**
     * An accumulator called twice, written to bytes with a seal and read back; the copy and the
     * original each go on from where it was written.
     */
    private static String serialized() throws IOException {
        Accumulator original = new Accumulator();
        original.call(5);
        int written = original.call(3);
        SecretKey key = new SecretKeySpec(new byte[32], "HmacSHA256");
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (CoroutineOutputStream<Integer, Integer> out = new CoroutineOutputStream<>(bytes, key)) {
            out.writeAsymCoroutine(original);
        }
        Accumulator copy = new Accumulator();
        try (CoroutineInputStream<Integer, Integer> in = new CoroutineInputStream<>(new ByteArrayInputStream(bytes.toByteArray()), key)) {
            in.readAsymCoroutine(copy);
        }
        String result = written + " written, then " + copy.call(10) + " from the copy and " + original.call(1)
                + " from the original";
        CoroutineBase.closeAll();
        return result;
    }

    private static String wovenAfterTheBuild() {
        Countdown countdown = new Countdown();
        StringJoiner values = new StringJoiner(" ");
        values.add(countdown.call(3));
        while (!countdown.isFinished()) {
            values.add(countdown.call(null));
        }
        return values.toString();
    }

    /** What {@link Clones} passes out, called to its end. */
    private static String arrayClones() {
        Clones clones = new Clones();
        StringJoiner values = new StringJoiner(", ");
        while (!clones.isFinished()) {
            values.add(clones.call(null));
        }
        return values.toString();
    }

    /** What calling this thread's suspended coroutine from another thread throws. */
    private static String fromAnotherThread() throws InterruptedException, ExecutionException {
        Squares squares = new Squares();
        squares.call(null);
        String thrown = CompletableFuture.supplyAsync(() -> {
            try {
                squares.call(null);
                return "nothing";
            } catch (RuntimeException e) {
                return e.getClass().getName();
            }
        }).get();
        squares.close();
        return thrown;
    }

    private static String refusal(Supplier<CoroutineBase> create) {
        try {
            return "created " + create.get();
        } catch (IllegalStateException e) {
            return e.getMessage();
        }
    }
}
