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
import dev.weft.internal.access.TransferCount;
import dev.weft.internal.contract.WeavingContract;
import dev.weft.internal.frames.FrameTransfer;
import dev.weft.internal.woven.Fiber;
import dev.weft.internal.woven.WovenFrames;
import dev.weft.internal.woven.WovenMethods;

import java.lang.invoke.MethodHandles;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Code outside Weft's packages tries each hook that the exported package used to offer, and
 * each way in that replaced them: every one is gone or refused. On the class path, as here,
 * nothing hides a public member, so the refusals are the runtime's own checks. Among them, the
 * JVM-wide count of frame transfers in progress ({@link FrameTransfer#activeCount()}, read by
 * woven code through {@link WovenFrames#active()}), which sends every woven call down its slow
 * path while it is not zero: this class's code, and weft-core's own test classes, are outside
 * weft-core (another directory), and cannot change it.
 */
class FormerHooksTest {

    private static final List<Class<?>> EXPORTED = List.of(Fiber.class, WovenFrames.class, WovenMethods.class,
            dev.weft.internal.woven.Twins.class, dev.weft.internal.woven.TwinLinker.class, dev.weft.internal.woven.BodyCall.class);

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
    void theTransferCountHasNoPublicWriterLeft() {
        assertNoPublicMethod(FrameTransfer.class, "begin");
        assertNoPublicMethod(FrameTransfer.class, "end");
        for (Class<?> nested : FrameTransfer.class.getDeclaredClasses()) {
            if (TransferCount.class.isAssignableFrom(nested)) {
                assertFalse(Modifier.isPublic(nested.getModifiers()), nested.getName() + " is public");
                assertThrows(IllegalAccessException.class, () -> nested.getDeclaredConstructor().newInstance(),
                        "reflection makes another " + nested.getName());
            }
        }
        assertEquals(0, WovenFrames.active(), "unchanged");
    }

    @Test
    void theAccessBridgeHandsTheTransferCountToWeftsOwnClassesAlone() {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> SharedAccess.transferCount());
        assertTrue(e.getMessage().contains("only Weft's own classes reach the count of frame transfers in progress")
                && e.getMessage().contains(FormerHooksTest.class.getName() + " tried"), e.getMessage());
        TransferCount raising = new TransferCount() {
            @Override
            public void begin() {
            }

            @Override
            public void end() {
            }
        };
        IllegalStateException set = assertThrows(IllegalStateException.class, () -> SharedAccess.setTransferCount(raising));
        assertTrue(set.getMessage().contains("only " + FrameTransfer.class.getName() + " sets its access, once; "
                + FormerHooksTest.class.getName() + " tried"), set.getMessage());
        assertEquals(0, WovenFrames.active(), "unchanged");
    }

    /**
     * Every public method of the exported package's classes and of {@link FrameTransfer}, static
     * ones and those of a new transfer, called with zeros and nulls (most then throw): none
     * leaves the count changed.
     */
    @Test
    void noPublicMethodOfTheExportedPackageOrOfFrameTransferChangesTheCount() throws Exception {
        List<Class<?>> types = new ArrayList<>(EXPORTED);
        types.add(FrameTransfer.class);
        List<String> tried = new ArrayList<>();
        for (Class<?> type : types) {
            for (Method m : type.getMethods()) {
                if (m.getDeclaringClass() == type && Modifier.isStatic(m.getModifiers())) {
                    callWithDefaults(m, null);
                    tried.add(m.getName());
                    assertEquals(0, WovenFrames.active(), type.getName() + "." + m.getName() + " changed the count");
                }
            }
        }
        for (FrameTransfer transfer : List.of(FrameTransfer.capture(), FrameTransfer.restore(List.of()))) {
            for (Method m : FrameTransfer.class.getMethods()) {
                if (m.getDeclaringClass() == FrameTransfer.class && !Modifier.isStatic(m.getModifiers())) {
                    callWithDefaults(m, transfer);
                    tried.add(m.getName());
                    assertEquals(0, WovenFrames.active(), "FrameTransfer." + m.getName() + " changed the count");
                }
            }
        }
        assertTrue(tried.containsAll(List.of("active", "captureFrame", "restoring", "register", "activeCount",
                "capture", "restore", "admit", "take")), "the sweep reached the methods it is about: " + tried);
    }

    /** Calls {@code m} on {@code target} with zero, false or null for each parameter; what it throws is ignored. */
    private static void callWithDefaults(Method m, Object target) throws IllegalAccessException {
        Class<?>[] parameters = m.getParameterTypes();
        Object[] arguments = new Object[parameters.length];
        for (int i = 0; i < parameters.length; i++) {
            arguments[i] = !parameters[i].isPrimitive() ? null
                    : parameters[i] == boolean.class ? false
                    : java.lang.reflect.Array.get(java.lang.reflect.Array.newInstance(parameters[i], 1), 0);
        }
        try {
            m.invoke(target, arguments);
        } catch (InvocationTargetException refused) {
            // a null or zero refused: only the count matters here
        }
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

    @Test
    void noPublicMethodHandsOutATwinOrALookup() {
        assertNoPublicMethod(dev.weft.internal.woven.Twins.class, "exactTwin");
        assertNoPublicMethod(dev.weft.internal.woven.Twins.class, "exact");
        assertNoPublicMethod(dev.weft.internal.woven.Twins.class, "lookupIn");
        assertNoPublicMethod(WovenMethods.class, "lookupOf");
        assertEquals(0, dev.weft.internal.woven.BodyCall.class.getConstructors().length, "a body call is made from a handle only");
    }

    private static void assertNoPublicMethod(Class<?> type, String name) {
        for (Method m : type.getMethods()) {
            assertFalse(m.getName().equals(name), type.getName() + " still has the public method " + m);
        }
    }
}
