package dev.weft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Default names: a coroutine's kind and a number unique in the JVM, which it takes the first
 * time its name is asked for; a name set before that keeps it from taking one.
 */
class CoroutineNamesTest {

    private static final Pattern DEFAULT = Pattern.compile("(\\w+)-(\\d+)");

    @AfterEach
    void closeLeftovers() {
        CoroutineBase.closeAll();
    }

    /** A coroutine subclass with a simple name of its own. */
    static final class Worker extends Coroutine {
    }

    private static long number(CoroutineBase c, String kind) {
        Matcher m = DEFAULT.matcher(c.getName());
        assertTrue(m.matches(), c.getName());
        assertEquals(kind, m.group(1), c.getName());
        return Long.parseLong(m.group(2));
    }

    @Test
    void aDefaultNameIsTheKindAndANumberTakenWhenFirstAskedFor() {
        Coroutine sym = new Coroutine(() -> { });
        AsymCoroutine<Void, Void> asym = new AsymCoroutine<>((self, in) -> null);
        Coroutine anonymous = new Coroutine() {
        };
        Worker worker = new Worker();
        long asymNumber = number(asym, "AsymCoroutine"); // asked first, though created second
        long symNumber = number(sym, "Coroutine");
        assertTrue(asymNumber < symNumber, asym.getName() + " then " + sym.getName());
        assertNotEquals(symNumber, number(anonymous, "Coroutine"));
        number(worker, "Worker");
        assertEquals(sym.getName(), sym.getName(), "the name, once taken, stays");
        assertEquals(sym.getName(), sym.toString().substring(0, sym.getName().length()));
    }

    @Test
    void aNameSetBeforeItWasAskedForIsKeptAndOneSetAfterReplacesTheDefault() {
        Coroutine named = new Coroutine(() -> { });
        named.setName("named");
        assertEquals("named", named.getName());
        Coroutine renamed = new Coroutine(() -> { });
        number(renamed, "Coroutine");
        renamed.setName("renamed");
        assertEquals("renamed", renamed.getName());
    }

    @Test
    void threadsAskingForTheNameOfTheSameCoroutineAtOnceAllGetOneName() throws InterruptedException {
        for (int round = 0; round < 200; round++) {
            Coroutine c = new Coroutine(() -> { });
            int threads = 4;
            String[] seen = new String[threads];
            CountDownLatch start = new CountDownLatch(1);
            List<Thread> askers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int slot = t;
                Thread asker = new Thread(() -> {
                    try {
                        start.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    seen[slot] = c.getName();
                });
                asker.start();
                askers.add(asker);
            }
            start.countDown();
            for (Thread asker : askers) {
                asker.join();
            }
            String name = c.getName();
            number(c, "Coroutine");
            for (String s : seen) {
                assertEquals(name, s, "round " + round);
            }
        }
    }
}
