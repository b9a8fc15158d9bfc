package dev.weft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The switch paths stay compiled in coroutines that the JIT compiled while they were starting.
 *
 * <p>HotSpot inlines Weft's switch into each coroutine's own loop frame, and those frames stay
 * frozen in their continuations. A branch the JIT saw only one way while the coroutines were
 * starting becomes a trap that every frozen frame hits once they resume: each is deoptimized
 * and then runs interpreted. A child JVM with synchronous compilation ({@code -Xbatch}) makes
 * the JIT compile the switch during the first round; the deoptimization log must then show no
 * trap repeated once per coroutine.
 */
class CompiledSwitchTest {

    static final int COROUTINES = 20_000;

    /** Starts a ring of coroutines (round one compiles the switch), then sends control round it a few times. */
    public static final class Ring {
        public static void main(String[] args) {
            int[] laps = new int[1];
            for (int i = 0; i < COROUTINES; i++) {
                new Coroutine(() -> {
                    while (true) {
                        laps[0]++;
                        Coroutine.yield();
                    }
                });
            }
            for (int round = 0; round < 4; round++) {
                Coroutine.yield();
            }
            System.out.println("laps " + laps[0]);
        }
    }

    /** Starts asymmetric coroutines one by one (each to its first ret), then calls each a few times. */
    public static final class Generators {
        public static void main(String[] args) {
            List<AsymCoroutine<Integer, Integer>> all = new java.util.ArrayList<>();
            for (int i = 0; i < COROUTINES; i++) {
                AsymCoroutine<Integer, Integer> c = new AsymCoroutine<>((self, first) -> {
                    int in = first;
                    while (true) {
                        in = self.ret(in + 1);
                    }
                });
                c.call(0);
                all.add(c);
            }
            long sum = 0;
            for (int round = 0; round < 4; round++) {
                for (AsymCoroutine<Integer, Integer> c : all) {
                    sum += c.call(round);
                }
            }
            System.out.println("laps " + sum);
        }
    }

    /** A chain of asymmetric coroutines, each calling the next inside itself, as the fiber chain does. */
    public static final class NestedChain {
        public static void main(String[] args) {
            AsymCoroutine<Integer, Integer> next = null;
            for (int i = 0; i < CHAIN; i++) {
                AsymCoroutine<Integer, Integer> to = next;
                next = new AsymCoroutine<>((self, first) -> {
                    int in = first;
                    while (true) {
                        in = self.ret(to == null ? in + 1 : to.call(in + 1));
                    }
                });
            }
            long sum = 0;
            for (int message = 0; message < 4; message++) {
                sum += next.call(0);
            }
            System.out.println("laps " + sum);
        }
    }

    static final int CHAIN = 5_000;

    @Test
    void aStartedRingResumesWithoutDeoptimizingEachCoroutine() throws Exception {
        assertNoTrapPerCoroutine(Ring.class, 4 * COROUTINES, COROUTINES);
    }

    @Test
    void startedGeneratorsResumeWithoutDeoptimizingEachCoroutine() throws Exception {
        assertNoTrapPerCoroutine(Generators.class, 4L * COROUTINES + 6L * COROUTINES, COROUTINES);
    }

    @Test
    void aNestedChainResumesWithoutDeoptimizingEachMember() throws Exception {
        assertNoTrapPerCoroutine(NestedChain.class, 4L * CHAIN, CHAIN);
    }

    private static void assertNoTrapPerCoroutine(Class<?> main, long laps, int coroutines) throws Exception {
        JavaProcess.Result result = JavaProcess.run(List.of(JavaProcess.ACCESS, "-Xbatch", "-Xss64m",
                "-Xlog:deoptimization=debug:stdout"), main);
        assertEquals(0, result.exitCode(), result.output());
        assertTrue(result.output().contains("laps " + laps),
                result.output().lines().filter(l -> l.startsWith("laps")).toList().toString());
        List<String> weftTraps = result.output().lines()
                .filter(l -> l.contains("[deoptimization]") && l.contains("dev.weft.") && !l.contains("CompiledSwitchTest"))
                .toList();
        assertTrue(weftTraps.size() < coroutines / 10, weftTraps.size() + " deoptimizations in Weft's code for "
                + coroutines + " coroutines: " + weftTraps.stream().limit(3).toList());
    }
}
