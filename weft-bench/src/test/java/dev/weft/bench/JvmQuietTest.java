package dev.weft.bench;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class JvmQuietTest {

    private static final String IDLE = """
            Current compiles:\s

            C1 compile queue:
            Empty

            C2 compile queue:
            Empty

            """;

    @Test
    void aQueueWithNothingCompilingAndEveryQueueEmptyIsIdle() {
        assertTrue(JvmQuiet.idle(IDLE));
        assertTrue(JvmQuiet.idle(""));
    }

    @Test
    void aCompileInProgressIsNotIdle() {
        String compiling = IDLE.replace("Current compiles: \n",
                "Current compiles: \nC2 CompilerThread0  1985 %     4       Q::lambda$main$0 @ 4 (40 bytes)\n");
        assertFalse(JvmQuiet.idle(compiling));
    }

    @Test
    void aQueuedTaskIsNotIdleInEitherQueue() {
        String c1 = "C1 compile queue:\n";
        String c2 = "C2 compile queue:\n";
        String task = "1799       4       java.lang.String::substring (10 bytes)\n";
        assertFalse(JvmQuiet.idle(IDLE.replace(c1 + "Empty\n", c1 + task)));
        assertFalse(JvmQuiet.idle(IDLE.replace(c2 + "Empty\n", c2 + task)));
    }

    /** The format idle() reads, as this JDK prints it: headings, "Empty" and task lines only. */
    @Test
    void thisJvmsCompileQueueHasTheFormatIdleReads() {
        String queue = JvmQuiet.compilerQueue();
        assertTrue(queue.contains("Current compiles:"), queue);
        assertTrue(queue.contains("compile queue:"), queue);
        for (String line : queue.lines().map(String::strip).toList()) {
            boolean known = line.isEmpty() || line.endsWith(":") || line.equals("Empty")
                    || line.matches("(C[12] CompilerThread\\d+\\s+)?\\d+ .*");
            assertTrue(known, "unexpected line in Compiler.queue: " + line + "\n" + queue);
        }
    }

    @Test
    void thisJdkTrimsTheNativeHeap() {
        String out = JvmQuiet.trimNativeHeap();
        assertTrue(out.startsWith("Trim native heap:"), out);
    }
}
