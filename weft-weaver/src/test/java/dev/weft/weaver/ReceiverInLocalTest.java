package dev.weft.weaver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.weft.AsymCoroutine;
import dev.weft.CoroutineFrame;
import dev.weft.Engine;
import dev.weft.internal.contract.SiteTable;
import dev.weft.internal.woven.WovenMethods;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A call's receiver loaded from a live local that still holds it is saved once, as that local:
 * the site table names the local ({@link SiteTable.Site#receiverLocal}), for {@code this} and for
 * any other local, and for no receiver whose local is dead after the call or that came from
 * elsewhere. Frames read from either engine hold the receiver in its slot all the same.
 */
class ReceiverInLocalTest extends WovenFixtureTest {

    private static final String FIXTURE = "ReceiverInLocal";
    private static final String STEP = "Ldev/weft/weaver/fixtures/ReceiverInLocal$Step;";

    /** The receiver local of each site of {@code key}, by the called method's name, in code order. */
    private Map<Integer, String> receiverLocals(String key) throws ClassNotFoundException {
        WovenMethods table = WovenMethods.of(loader.loadClass("dev.weft.weaver.fixtures." + FIXTURE));
        Map<Integer, String> locals = new TreeMap<>();
        table.method(key).sites().values().forEach(site -> locals.put(site.bci(),
                site.targetKey().substring(0, site.targetKey().indexOf('(')) + "=" + site.receiverLocal()));
        return locals;
    }

    @Test
    void thisAndALiveLocalAreNamedAsTheirCallsReceivers() throws ClassNotFoundException {
        WovenMethods table = WovenMethods.of(loader.loadClass("dev.weft.weaver.fixtures." + FIXTURE));
        SiteTable.Site apply = table.method("run(Ljava/lang/Object;)Ljava/lang/String;").sites().values().stream()
                .filter(site -> site.targetKey().startsWith("apply(")).findFirst().orElseThrow();
        assertNotEquals(-1, apply.receiverLocal(), "s.apply(this, x): s is read again by the loop");
        assertEquals(STEP, apply.locals().get(apply.receiverLocal()), "the local of the step");
        assertEquals(List.of("apply=" + apply.receiverLocal(), "walk=0", "once=0", "viaField=0"),
                List.copyOf(receiverLocals("run(Ljava/lang/Object;)Ljava/lang/String;").values()));
        assertEquals(List.of("ask=0", "walk=0"), List.copyOf(receiverLocals("walk(II)I").values()),
                "a recursion's this");
    }

    @Test
    void aDeadLocalOrAFieldIsNoReceiversLocal() throws ClassNotFoundException {
        assertEquals(List.of("apply=-1"), List.copyOf(receiverLocals("once(I)I").values()),
                "t is not read after t.apply(this, x), so it is not saved: the receiver is");
        assertEquals(List.of("apply=-1"), List.copyOf(receiverLocals("viaField(I)I").values()));
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void framesHoldTheReceiverInItsSlotAndResumeOnEitherEngine(Engine engine) {
        AsymCoroutine<Object, String> original = loader.newInstance(FIXTURE, engine);
        assertEquals("step 5", original.call(5));
        assertEquals("walk 8", original.call(3)); // s.apply gave 3 + 5; walk(3, 5) went down three frames, adding 1 each
        CoroutineFrame[] frames = original.serialize();
        int walks = 0;
        for (CoroutineFrame frame : frames) {
            if (frame.method.getName().equals("walk") && frame.expressionCount > 0) {
                assertSame(frame.objectValues[0], frame.objectValues[frame.objectValues.length - 1],
                        "the receiver of " + frame + " is its this");
                walks++;
            }
        }
        assertEquals(4, walks, "walk(3), walk(2), walk(1), walk(0), each in a call on this");
        for (Engine to : Engine.values()) {
            AsymCoroutine<Object, String> copy = loader.newInstance(FIXTURE, to);
            copy.deserialize(Replay.rehome(original.serialize(), original, copy));
            assertEquals("step 15", copy.call(4), "walk(3, 5) gives 4 + 3, so x = 8 + 7; on " + to);
        }
    }
}
