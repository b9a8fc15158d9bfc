package dev.weft.examples;

import dev.weft.Coroutine;

import java.io.PrintStream;

/**
 * Thesis figure 3.3: the same program as figure 3.2 ({@link ExampleCoroutine}), with the code
 * in a {@link Runnable} given to {@code new Coroutine(...)} instead of a subclass. The output is
 * the same.
 */
public class ExampleRunnable implements Runnable {

    private final PrintStream out;

    /** Prints to {@code out}. */
    public ExampleRunnable(PrintStream out) {
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
        new Coroutine(new ExampleRunnable(out));
        out.println("start");
        Coroutine.yield();
        out.println("middle");
        Coroutine.yield();
        out.println("end");
    }
}
