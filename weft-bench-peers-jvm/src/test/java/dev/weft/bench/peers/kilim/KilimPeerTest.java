package dev.weft.bench.peers.kilim;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.bench.peers.Tree;
import kilim.Mailbox;
import kilim.Pausable;
import kilim.Scheduler;
import kilim.Task;
import org.junit.jupiter.api.Test;

/** Checks that the build wove the Kilim peer, and that its pieces compute what they should. */
class KilimPeerTest {

    @Test
    void generatorsCompareFringes() {
        Tree a = Tree.balanced(1000);
        assertTrue(KilimPeer.sameFringe(a, Tree.lopsided(1000), Long.MAX_VALUE));
        assertFalse(KilimPeer.sameFringe(a, Tree.lopsidedDifferentLast(1000), Long.MAX_VALUE));
        assertFalse(KilimPeer.sameFringe(a, Tree.balanced(999), Long.MAX_VALUE));
        assertTrue(KilimPeer.sameFringe(a, Tree.lopsidedDifferentLast(1000), 999), "a prefix that stops short");
    }

    /** Sends 100 messages through a chain of 50 stages and checks what comes back. */
    static final class ChainDriver extends Task<Object> {
        volatile boolean ok;

        @Override
        public void execute() throws Pausable {
            int n = 50;
            @SuppressWarnings({"unchecked", "rawtypes"})
            Mailbox<Integer>[] boxes = new Mailbox[n + 1];
            for (int i = 0; i <= n; i++) {
                boxes[i] = new Mailbox<>(1);
            }
            for (int i = 0; i < n; i++) {
                new KilimPeer.Stage(boxes[i], boxes[i + 1]).start();
            }
            boolean all = true;
            for (int m = 0; m < 100; m++) {
                boxes[0].put(m);
                all &= boxes[n].get() == m + n;
            }
            boxes[0].put(KilimPeer.STOP);
            all &= boxes[n].get() == KilimPeer.STOP;
            ok = all;
        }
    }

    @Test
    void tasksPassMessagesDownAChain() {
        Scheduler.setDefaultScheduler(Scheduler.make(1));
        ChainDriver driver = new ChainDriver();
        driver.start();
        driver.joinb();
        assertTrue(driver.ok);
    }
}
