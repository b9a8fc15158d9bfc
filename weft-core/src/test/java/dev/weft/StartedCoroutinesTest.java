package dev.weft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The list of a thread's started asymmetric coroutines that {@code closeAll()} reads: entries are
 * never removed one by one, so the sweep must keep it as small as what it tracks, and it must
 * give each live coroutine of its thread once.
 */
class StartedCoroutinesTest {

    @AfterEach
    void closeLeftovers() {
        CoroutineBase.closeAll();
    }

    private static AsymCoroutine<Void, Void> suspended() {
        AsymCoroutine<Void, Void> c = new AsymCoroutine<>((self, in) -> {
            self.ret(null);
            return null;
        });
        c.call(null);
        return c;
    }

    @Test
    void entriesOfFinishedCoroutinesAreSweptOutAsTheListGrows() {
        StartedCoroutines list = new StartedCoroutines(CoroutineSupport.current());
        List<AsymCoroutine<Void, Void>> alive = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            AsymCoroutine<Void, Void> c = suspended();
            list.add(c);
            if (i % 1_000 == 0) {
                alive.add(c);
            } else {
                c.call(null);
                assertTrue(c.isFinished());
            }
        }
        assertTrue(list.entryCount() < 2 * 64 + alive.size(), "entries kept: " + list.entryCount());
        assertEquals(alive, list.live());
    }

    @Test
    void aCoroutineAddedTwiceIsLiveOnce() {
        StartedCoroutines list = new StartedCoroutines(CoroutineSupport.current());
        AsymCoroutine<Void, Void> c = suspended();
        list.add(c);
        list.add(c);
        assertEquals(List.of(c), list.live());
    }

    @Test
    void aCoroutineStolenByAnotherThreadIsNoLongerLiveHere() throws InterruptedException {
        StartedCoroutines list = new StartedCoroutines(CoroutineSupport.current());
        AsymCoroutine<Void, Void> stolen = suspended();
        AsymCoroutine<Void, Void> kept = suspended();
        list.add(stolen);
        list.add(kept);
        boolean[] took = new boolean[1];
        Thread thief = new Thread(() -> took[0] = stolen.steal());
        thief.start();
        thief.join();
        assertTrue(took[0]);
        assertEquals(List.of(kept), list.live());
        assertEquals(1, list.entryCount(), "the stolen one's entry is swept out");
        assertTrue(stolen.steal(), "back, so that closeAll closes it");
    }

    @Test
    void anEntryAddedAfterASweepDroppedTheNewestOnesComesLast() {
        StartedCoroutines list = new StartedCoroutines(CoroutineSupport.current());
        AsymCoroutine<Void, Void> first = suspended();
        AsymCoroutine<Void, Void> finishing = suspended();
        list.add(first);
        list.add(finishing);
        finishing.call(null);
        assertEquals(List.of(first), list.live()); // the sweep drops the newest entry
        AsymCoroutine<Void, Void> next = suspended();
        list.add(next);
        assertEquals(List.of(first, next), list.live());
        first.call(null);
        next.call(null);
        assertEquals(List.of(), list.live());
        assertEquals(0, list.entryCount());
        AsymCoroutine<Void, Void> after = suspended();
        list.add(after);
        assertEquals(List.of(after), list.live());
    }
}
