package dev.weft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A suspended coroutine's frames keep what they reference alive, and nothing keeps an unreachable coroutine. */
class ReachabilityTest {

    @AfterEach
    void closeLeftovers() {
        CoroutineBase.closeAll();
    }

    private static final class Payload {
        final int[] data = new int[1024];

        Payload(int seed) {
            for (int i = 0; i < data.length; i++) {
                data[i] = seed + i;
            }
        }

        int checksum() {
            int sum = 0;
            for (int value : data) {
                sum += value;
            }
            return sum;
        }
    }

    /** Runs full collections until {@code ref} is cleared, or gives up after many; returns whether it was. */
    private static boolean collectUntilCleared(WeakReference<?> ref) throws InterruptedException {
        for (int i = 0; i < 50 && ref.get() != null; i++) {
            System.gc();
            Thread.sleep(10);
        }
        return ref.get() == null;
    }

    private static void churnAndCollect() throws InterruptedException {
        List<byte[]> garbage = new ArrayList<>();
        for (int i = 0; i < 64; i++) {
            garbage.add(new byte[1 << 16]);
        }
        garbage.clear();
        for (int i = 0; i < 5; i++) {
            System.gc();
            Thread.sleep(10);
        }
    }

    /** Creates a coroutine whose only reference to a payload is a local of its suspended frame. */
    private static AsymCoroutine<Void, Integer> holdingPayload(List<WeakReference<Payload>> handle) {
        return new AsymCoroutine<>((self, in) -> {
            Payload local = new Payload(7);
            handle.add(new WeakReference<>(local));
            self.ret(0);
            return local.checksum();
        });
    }

    @Test
    void objectsReachableOnlyFromASuspendedCoroutineStayAlive() throws InterruptedException {
        List<WeakReference<Payload>> handle = new ArrayList<>();
        AsymCoroutine<Void, Integer> co = holdingPayload(handle);
        co.call(null);
        churnAndCollect();
        assertNotNull(handle.get(0).get(), "collected while the suspended coroutine still needs it");
        assertEquals(new Payload(7).checksum(), co.call(null));
    }

    @Test
    void objectsOnASuspendedSymmetricCoroutinesStackStayAlive() throws InterruptedException {
        List<WeakReference<Payload>> handle = new ArrayList<>();
        int[] result = new int[1];
        new Coroutine(() -> {
            Payload local = new Payload(3);
            handle.add(new WeakReference<>(local));
            Coroutine.yield();
            result[0] = local.checksum();
        });
        Coroutine.yield();
        churnAndCollect();
        assertNotNull(handle.get(0).get());
        Coroutine.yield();
        assertEquals(new Payload(3).checksum(), result[0]);
    }

    @Test
    void anUnreachableSuspendedCoroutineIsCollectedWithWhatItHolds() throws InterruptedException {
        List<WeakReference<Payload>> handle = new ArrayList<>();
        AsymCoroutine<Void, Integer> co = holdingPayload(handle);
        co.call(null);
        WeakReference<AsymCoroutine<Void, Integer>> coroutine = new WeakReference<>(co);
        co = null;
        assertTrue(collectUntilCleared(coroutine), "the coroutine was not collected");
        assertTrue(collectUntilCleared(handle.get(0)), "its payload was not collected");
        assertEquals(0, CoroutineBase.closeAll(), "closeAll sees no coroutine that was collected");
    }

    @Test
    void aFinishedSymmetricCoroutineIsCollected() throws InterruptedException {
        Coroutine co = new Coroutine(() -> { });
        Coroutine.yield();
        assertTrue(co.isFinished());
        WeakReference<Coroutine> ref = new WeakReference<>(co);
        co = null;
        assertTrue(collectUntilCleared(ref));
    }
}
