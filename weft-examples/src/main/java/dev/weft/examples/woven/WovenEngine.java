package dev.weft.examples.woven;

import dev.weft.Coroutine;
import dev.weft.CoroutineBase;
import dev.weft.CoroutineFrame;
import dev.weft.Engine;

import java.io.PrintStream;
import java.util.StringJoiner;

/**
 * The woven engine ({@link Engine#WOVEN}): a relay of a thousand woven coroutines passing a
 * baton round with {@code yieldTo} (thesis section 6.3's fiber chain), then a generator
 * serialized on the woven engine and resumed on the native one, its frames rehomed by hand to
 * the new coroutine (thesis 5.2).
 */
public final class WovenEngine {

    /** Members of the relay. */
    public static final int MEMBERS = 1_000;

    private WovenEngine() {
    }

    public static void main(String[] args) {
        demo(System.out);
    }

    public static void demo(PrintStream out) {
        relay(out);
        generatorAcrossEngines(out);
    }

    private static void relay(PrintStream out) {
        Relay.Baton baton = new Relay.Baton();
        Coroutine next = Coroutine.current(); // the last member passes the baton back here
        for (int i = 0; i < MEMBERS; i++) {
            next = new Relay(baton, next);
        }
        try {
            for (int lap = 1; lap <= 3; lap++) {
                Coroutine.yieldTo(next);
                out.println("lap " + lap + ": the baton went through " + MEMBERS + " woven coroutines and came back as "
                        + baton.value);
            }
        } finally {
            CoroutineBase.closeAll();
        }
    }

    private static void generatorAcrossEngines(PrintStream out) {
        Fibonacci woven = new Fibonacci(Engine.WOVEN);
        out.println("on the woven engine: " + take(woven, 8));
        CoroutineFrame[] frames = woven.serialize();
        StringJoiner methods = new StringJoiner(", ");
        for (CoroutineFrame frame : frames) {
            methods.add(frame.method.getName() + "@" + frame.bci);
        }
        out.println("serialized: " + frames.length + " frames (" + methods + ")");
        Fibonacci resumed = new Fibonacci(Engine.NATIVE);
        for (CoroutineFrame frame : frames) {
            for (int slot = 0; slot < frame.objectValues.length; slot++) {
                if (frame.objectValues[slot] == woven) {
                    frame.objectValues[slot] = resumed;
                }
            }
        }
        resumed.deserialize(frames);
        out.println("resumed on the native engine: " + take(resumed, 8));
        woven.close();
        resumed.close();
    }

    private static String take(Fibonacci generator, int count) {
        StringJoiner values = new StringJoiner(" ");
        for (int i = 0; i < count; i++) {
            values.add(String.valueOf(generator.call(null)));
        }
        return values.toString();
    }
}
