package dev.weft.examples;

import dev.weft.Coroutine;

import java.io.PrintStream;

/**
 * Thesis figure 3.2: a subclass of {@link Coroutine}. (Java 14 made {@code yield} a restricted
 * identifier, so the calls are written {@code Coroutine.yield()}.)
 *
 * <p>The lines go to a {@link PrintStream} given at construction, {@code System.out} in
 * {@link #main}, so that a test can read them.
 */
public class ExampleCoroutine extends Coroutine {

    private final PrintStream out;

    /** Prints to {@code out}. */
    public ExampleCoroutine(PrintStream out) {
        this.out = out;
    }

    @Override
    public void run() {
        out.println("Coroutine running 1");
        Coroutine.yield();
        out.println("Coroutine running 2");
    }

    public static void main(String[] args) {
        demo(System.out);
    }

    /** The figure's {@code main}: prints start, Coroutine running 1, middle, Coroutine running 2, end. */
    public static void demo(PrintStream out) {
        new ExampleCoroutine(out);
        out.println("start");
        Coroutine.yield();
        out.println("middle");
        Coroutine.yield();
        out.println("end");
    }
}
