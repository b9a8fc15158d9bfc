package dev.weft.weaver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.AsymCoroutine;
import dev.weft.Coroutine;
import dev.weft.CoroutineFrame;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * Every refusal of serialize and deserialize is a clear exception that names the coroutine and
 * the frame, class or slot at fault, and leaves the coroutine usable: after it, the coroutine
 * is resumed and finishes correctly.
 */
class RefusalTest extends WovenFixtureTest {

    private static void assertMessage(Exception e, String... parts) {
        for (String part : parts) {
            assertTrue(e.getMessage().contains(part), "missing '" + part + "' in: " + e.getMessage());
        }
    }

    // ------------------------------------------------------------ serialize

    @Test
    void aFrameOfJdkCodeIsNotWoven() {
        AsymCoroutine<Void, String> co = loader.newInstance("ThroughJdkCode");
        co.setName("through-jdk");
        assertEquals("a", co.call(null));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, co::serialize);
        assertMessage(e, "through-jdk", "forEach", "is not woven");
        assertEquals("b", co.call(null));
        assertEquals("end", co.call(null));
    }

    @Test
    void aRefusedCoroutineIsRefusedAgainAndMovesAndFinishesAsBefore() throws Exception {
        AsymCoroutine<Void, String> co = loader.newInstance("ThroughJdkCode");
        co.setName("through-jdk");
        assertEquals("a", co.call(null));
        String first = assertThrows(IllegalArgumentException.class, co::serialize).getMessage();
        assertEquals(first, assertThrows(IllegalArgumentException.class, co::serialize).getMessage());
        assertTrue(first.startsWith("cannot serialize through-jdk [suspended, thread main]: its frame "), first);
        String there = onAnotherThread(() -> {
            assertTrue(co.steal());
            String refused = assertThrows(IllegalArgumentException.class, co::serialize).getMessage();
            assertEquals("b", co.call(null));
            assertEquals("end", co.call(null));
            return refused;
        });
        assertEquals(first.replace("thread main", "thread restorer"), there);
        assertTrue(co.isFinished());
    }

    @Test
    void aFrameCalledByReflectionIsRefused() {
        AsymCoroutine<Void, String> co = loader.newInstance("ThroughReflection");
        co.setName("reflective");
        assertEquals("inside", co.call(null));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, co::serialize);
        assertMessage(e, "reflective", "java.lang.reflect.Method.invoke", "is not woven");
        assertEquals("after inner", co.call(null));
        AsymCoroutine<Void, String> copy = loader.newInstance("ThroughReflection");
        copy.deserialize(Replay.rehome(co.serialize(), co, copy));
        assertEquals("end", copy.call(null), "once out of the reflective call, the same coroutine serializes");
    }

    @Test
    void aRefusedSymmetricCoroutineGoesOnInTheRing() throws ReflectiveOperationException {
        List<String> log = new ArrayList<>();
        Coroutine co = (Coroutine) loader.loadClass("dev.weft.weaver.fixtures.SymmetricThroughJdkCode")
                .getConstructor(List.class).newInstance(log);
        co.setName("ring-member");
        Coroutine.yield();
        assertEquals(List.of("a"), log);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, co::serialize);
        assertMessage(e, "ring-member", "forEach", "is not woven");
        Coroutine.yield();
        assertEquals(List.of("a", "b"), log);
        assertThrows(IllegalArgumentException.class, co::serialize);
        Coroutine.yieldTo(co);
        assertEquals(List.of("a", "b", "end"), log);
        assertTrue(co.isFinished());
    }

    @Test
    void aFrameHoldingAMonitorIsRefused() {
        AsymCoroutine<Void, String> co = loader.newInstance("HoldingMonitor");
        assertEquals("locked", co.call(null));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, co::serialize);
        assertMessage(e, "HoldingMonitor.run", "holds a monitor");
        assertEquals("unlocked", co.call(null));
        AsymCoroutine<Void, String> copy = loader.newInstance("HoldingMonitor");
        copy.deserialize(Replay.rehome(co.serialize(), co, copy));
        assertEquals("end", copy.call(null), "outside the synchronized block, the same method serializes");
    }

    @Test
    void aConstructorFrameIsRefused() {
        AsymCoroutine<Void, String> co = loader.newInstance("InConstructor");
        assertEquals("constructing", co.call(null));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, co::serialize);
        assertMessage(e, "InConstructor$Built.<init>", "constructors");
        assertEquals("built", co.call(null));
    }

    @Test
    void theInitialCoroutineARunningOneAndACallingOneAreRefused() {
        IllegalArgumentException initial = assertThrows(IllegalArgumentException.class, () -> Coroutine.current().serialize());
        assertMessage(initial, "initial");
        AsymCoroutine<Void, String> running = new AsymCoroutine<>((self, in) -> {
            IllegalArgumentException itself = assertThrows(IllegalArgumentException.class, self::serialize);
            return itself.getMessage();
        });
        assertMessage(new IllegalStateException(running.call(null)), "is running");
        AsymCoroutine<Void, String> outer = new AsymCoroutine<>((self, in) -> new AsymCoroutine<Void, String>(
                (me, x) -> assertThrows(IllegalArgumentException.class, self::serialize).getMessage()).call(null));
        assertMessage(new IllegalStateException(outer.call(null)), "in the middle of calling");
    }

    @Test
    void aFinishedCoroutineIsRefused() {
        AsymCoroutine<Void, String> done = new AsymCoroutine<>();
        done.call(null);
        assertMessage(assertThrows(IllegalStateException.class, done::serialize), "finished");
    }

    @Test
    void aNewCoroutineHasNoFrames() {
        AsymCoroutine<String, String> fresh = loader.newInstance("Nested");
        assertEquals(0, fresh.serialize().length);
        assertEquals("a/0#0", fresh.call("a"));
    }

    // ------------------------------------------------------------ deserialize

    /** A Nested coroutine suspended three frames deep (its run's bridge is passed through), its frames, and a fresh coroutine to restore into. */
    private record Captured(AsymCoroutine<String, String> source, CoroutineFrame[] frames, AsymCoroutine<String, String> target) {
    }

    private Captured captured() {
        AsymCoroutine<String, String> source = loader.newInstance("Nested");
        assertEquals("a/0#0", source.call("a"));
        assertEquals("x!/1#10", source.call("x"));
        CoroutineFrame[] frames = source.serialize();
        assertEquals(3, frames.length, java.util.Arrays.toString(frames)); // run, outer, inner: no frame of the bridge run(Object)
        AsymCoroutine<String, String> target = loader.newInstance("Nested");
        target.setName("target");
        for (CoroutineFrame frame : frames) {
            for (int i = 0; i < frame.objectValues.length; i++) {
                if (frame.objectValues[i] == source) {
                    frame.objectValues[i] = target;
                }
            }
        }
        return new Captured(source, frames, target);
    }

    /** Tampers with good frames, expects a refusal naming the fault, then shows the target untouched. */
    private void assertRefused(Consumer<CoroutineFrame[]> tamper, String... parts) {
        Captured c = captured();
        tamper.accept(c.frames());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> c.target().deserialize(c.frames()));
        assertMessage(e, "target");
        assertMessage(e, parts);
        assertEquals("b/0#0", c.target().call("b"), "the refused target runs from its start as before");
        assertEquals("y!/2#20", c.source().call("y"), "the source goes on too");
    }

    @Test
    void aBciThatIsNotASuspensionSiteIsRefused() {
        assertRefused(frames -> frames[0].bci = 9999, "frame 0 of 3", "bci 9999", "not a suspension site");
    }

    @Test
    void aMethodThatIsNotWovenIsRefused() throws Exception {
        Method notWoven = String.class.getMethod("valueOf", Object.class);
        assertRefused(frames -> frames[0].method = notWoven, "frame 0 of 3", "java.lang.String", "not woven");
    }

    @Test
    void anObjectInAnIntSlotIsRefused() {
        assertRefused(frames -> {
            CoroutineFrame run = frames[0]; // run(String first): slot 3 is the loop's round
            run.objectValues[3] = "not an int";
        }, "frame 0 of 3", "slot 3", "java.lang.String", "an int");
    }

    @Test
    void aValueInADeadSlotIsRefused() {
        assertRefused(frames -> frames[1].scalarValues[2] = 5, // outer's round is dead after the call
                "frame 1 of 3", "slot 2", "dead");
    }

    @Test
    void aReferenceOfTheWrongTypeIsRefused() {
        assertRefused(frames -> frames[0].objectValues[0] = 42, "frame 0 of 3", "slot 0", "java.lang.Integer",
                "dev.weft.weaver.fixtures.Nested");
    }

    @Test
    void aNumberInAReferenceSlotIsRefused() {
        assertRefused(frames -> {
            frames[0].objectValues[0] = null;
            frames[0].scalarValues[0] = 7;
        }, "frame 0 of 3", "slot 0", "the number 7");
    }

    @Test
    void framesThatDoNotChainAreRefused() {
        assertRefused(frames -> {
            CoroutineFrame inner = frames[2];
            frames[2] = frames[1];
            frames[1] = inner;
        }, "do not chain");
    }

    @Test
    void aMissingInnermostFrameIsRefused() {
        Captured c = captured();
        CoroutineFrame[] truncated = java.util.Arrays.copyOf(c.frames(), 2);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> c.target().deserialize(truncated));
        assertMessage(e, "frame 1 of 2", "innermost");
        assertEquals("b/0#0", c.target().call("b"));
    }

    @Test
    void wrongSlotCountsAreRefused() {
        assertRefused(frames -> frames[0].localCount++, "frame 0 of 3", "locals");
    }

    @Test
    void aFrameWithoutMethodIsRefused() {
        assertRefused(frames -> frames[1] = null, "frame 1 of 3", "has no method");
    }

    @Test
    void validFramesAreAcceptedAfterARefusal() {
        Captured c = captured();
        CoroutineFrame[] good = c.frames().clone();
        int bci = good[1].bci;
        good[1].bci = -1;
        assertThrows(IllegalArgumentException.class, () -> c.target().deserialize(good));
        good[1].bci = bci;
        c.target().deserialize(good);
        assertEquals("y!/2#20", c.target().call("y"));
        assertEquals("finished with z!", c.target().call("z"));
    }
}
