package dev.weft.examples;

import dev.weft.Coroutine;

/**
 * Thesis figure 3.2: a subclass of {@link Coroutine}. (Java 14 made {@code yield} a restricted
 * identifier, so the calls are written {@code Coroutine.yield()}.)
 */
public class ExampleCoroutine extends Coroutine {

    @Override
    public void run() {
        System.out.println("Coroutine running 1");
        Coroutine.yield();
        System.out.println("Coroutine running 2");
    }

    public static void main(String[] args) {
        new ExampleCoroutine();
        System.out.println("start");
        Coroutine.yield();
        System.out.println("middle");
        Coroutine.yield();
        System.out.println("end");
    }
}
