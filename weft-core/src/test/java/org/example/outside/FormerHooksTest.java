package org.example.outside;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.AsymCoroutine;
import dev.weft.internal.access.CoroutineAccess;
import dev.weft.internal.access.FiberAccess;
import dev.weft.internal.access.SharedAccess;
import dev.weft.internal.contract.WeavingContract;
import dev.weft.internal.woven.Fiber;
import dev.weft.internal.woven.WovenFrames;
import dev.weft.internal.woven.WovenMethods;

import java.lang.invoke.MethodHandles;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Code outside Weft's packages tries each hook that the exported package used to offer, and
 * each way in that replaced them: every one is gone or refused. On the class path, as here,
 * nothing hides a public member, so the refusals are the runtime's own checks.
 */
class FormerHooksTest {

    private static final List<Class<?>> EXPORTED = List.of(Fiber.class, WovenFrames.class, WovenMethods.class,
            dev.weft.internal.woven.Twins.class, dev.weft.internal.woven.TwinLinker.class);

    @Test
    void theExportedPackageHasNoPublicMutableField() {
        for (Class<?> type : EXPORTED) {
            for (Field f : type.getFields()) {
                assertTrue(Modifier.isFinal(f.getModifiers()), type.getName() + "." + f.getName() + " is public and not final");
            }
        }
        assertThrows(NoSuchFieldException.class, () -> WovenFrames.class.getField("active"));
    }

    @Test
    void theFormerGlobalHooksAreGone() {
        assertNoPublicMethod(dev.weft.internal.woven.Twins.class, "registerSuspension");
        assertNoPublicMethod(WovenFrames.class, "install");
        assertNoPublicMethod(WovenFrames.class, "begin");
        assertNoPublicMethod(WovenFrames.class, "end");
        for (String engineSide : List.of("replaceSavedFrames", "savedReferences", "savedPrimitives", "startUnwinding",
                "finishUnwinding", "startRewinding", "finishRewinding", "discardSavedFrames", "coroutine")) {
            assertNoPublicMethod(Fiber.class, engineSide);
        }
        assertEquals(0, Fiber.class.getConstructors().length, "no public constructor of Fiber");
        assertThrows(ClassNotFoundException.class, () -> Class.forName("dev.weft.internal.woven.FrameTransfer"));
    }

    @Test
    void theAccessBridgeTakesNoOtherSetter() {
        CoroutineAccess coroutines = SharedAccess.coroutines();
        FiberAccess fibers = SharedAccess.fibers();
        IllegalStateException c = assertThrows(IllegalStateException.class, () -> SharedAccess.setCoroutineAccess(coroutines));
        assertTrue(c.getMessage().contains("only dev.weft.CoroutineBase sets its access")
                && c.getMessage().contains(FormerHooksTest.class.getName()), c.getMessage());
        IllegalStateException f = assertThrows(IllegalStateException.class, () -> SharedAccess.setFiberAccess(fibers));
        assertTrue(f.getMessage().contains("only " + Fiber.class.getName()), f.getMessage());
        assertEquals(coroutines, SharedAccess.coroutines(), "unchanged");
    }

    @Test
    void aClassCannotRegisterATableForAnother() {
        MethodHandles.Lookup borrowed = MethodHandles.lookup().in(AsymCoroutine.class);
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> WovenMethods.register(borrowed, WeavingContract.tableHeader() + "\n"));
        assertTrue(e.getMessage().contains("registers itself with its own MethodHandles.lookup()"), e.getMessage());
        assertThrows(IllegalStateException.class, () -> WovenMethods.registerWovenSites(borrowed, ""));
        assertNull(WovenMethods.of(AsymCoroutine.class), "the library's class is still not woven");
    }

    @Test
    void aClassWovenWithAnotherFormatIsRefusedWithAMessageToWeaveItAgain() {
        IllegalStateException old = assertThrows(IllegalStateException.class,
                () -> WovenMethods.register(FormerHooksTest.class, "run()V\thash\t\n"));
        assertEquals(FormerHooksTest.class.getName() + " was woven by another version of weft-weaver (woven code format 1);"
                + " this Weft runs format " + WeavingContract.FORMAT_VERSION + ": recompile " + FormerHooksTest.class.getName()
                + " and weave it again with this version's weaver (agent, plugin or command line; a class already woven"
                + " is never woven twice, so build from clean)", old.getMessage());
        IllegalStateException newer = assertThrows(IllegalStateException.class,
                () -> WovenMethods.register(MethodHandles.lookup(), WeavingContract.TABLE_HEADER + "99\n"));
        assertTrue(newer.getMessage().contains("(woven code format 99)") && newer.getMessage().contains("recompile "
                + FormerHooksTest.class.getName() + " and weave it again"), newer.getMessage());
        assertThrows(IllegalStateException.class, () -> WovenMethods.registerWovenSites(FormerHooksTest.class, ""));
        assertNull(WovenMethods.of(FormerHooksTest.class), "nothing was registered");
    }

    private static void assertNoPublicMethod(Class<?> type, String name) {
        for (Method m : type.getMethods()) {
            assertFalse(m.getName().equals(name), type.getName() + " still has the public method " + m);
        }
    }
}
