package dev.weft.internal.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.invoke.MethodType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** Every member the weaver emits a call to exists in the runtime, public, with the descriptor the weaver uses. */
class WeavingContractTest {

    @Test
    void everyFrameRecordAccessorExists() throws ClassNotFoundException {
        Class<?> frames = runtime(WeavingContract.FRAMES_CLASS);
        assertStatic(frames, WeavingContract.ACTIVE_METHOD, WeavingContract.ACTIVE_DESCRIPTOR);
        assertStatic(frames, WeavingContract.CAPTURE_FRAME_METHOD, WeavingContract.CAPTURE_FRAME_DESCRIPTOR);
        assertStatic(frames, WeavingContract.RESTORING_METHOD, WeavingContract.RESTORING_DESCRIPTOR);
        assertStatic(frames, WeavingContract.NOT_A_SITE_METHOD, WeavingContract.RECORD_NOT_A_SITE_DESCRIPTOR);
        for (String kind : WeavingContract.VALUE_KINDS) {
            assertStatic(frames, WeavingContract.PUT_PREFIX + kind, WeavingContract.putDescriptor(kind));
            assertStatic(frames, WeavingContract.GET_PREFIX + kind, WeavingContract.getDescriptor(kind));
        }
    }

    @Test
    void everyFiberOperationExists() throws ClassNotFoundException {
        Class<?> fiber = runtime(WeavingContract.FIBER_CLASS);
        assertInstance(fiber, WeavingContract.UNWINDING_METHOD, WeavingContract.FLAG_DESCRIPTOR);
        assertInstance(fiber, WeavingContract.RESUMING_METHOD, WeavingContract.FLAG_DESCRIPTOR);
        assertInstance(fiber, WeavingContract.REWINDS_CALLEE_METHOD, WeavingContract.FLAG_DESCRIPTOR);
        assertInstance(fiber, WeavingContract.NOT_A_SITE_METHOD, WeavingContract.FIBER_NOT_A_SITE_DESCRIPTOR);
        assertInstance(fiber, WeavingContract.END_FRAME_METHOD, WeavingContract.END_FRAME_DESCRIPTOR);
        assertInstance(fiber, WeavingContract.RESUMED_VOID_METHOD, "()V");
        for (String kind : WeavingContract.VALUE_KINDS) {
            assertInstance(fiber, WeavingContract.RESUMED_PREFIX + kind, WeavingContract.resumedDescriptor(kind));
            assertInstance(fiber, WeavingContract.PUSH_PREFIX + kind, WeavingContract.pushDescriptor(kind));
            assertInstance(fiber, WeavingContract.POP_PREFIX + kind, WeavingContract.popDescriptor(kind));
        }
    }

    @Test
    void everyRegistrationExists() throws ClassNotFoundException {
        Class<?> tables = runtime(WeavingContract.TABLES_CLASS);
        assertStatic(tables, WeavingContract.REGISTER_METHOD, WeavingContract.REGISTER_LOOKUP_DESCRIPTOR);
        assertStatic(tables, WeavingContract.REGISTER_METHOD, WeavingContract.REGISTER_DESCRIPTOR);
        assertStatic(tables, WeavingContract.REGISTER_WOVEN_SITES_METHOD, WeavingContract.REGISTER_DESCRIPTOR);
        assertStatic(tables, WeavingContract.REGISTER_METHOD, WeavingContract.FORMAT_1_REGISTER_DESCRIPTOR);
    }

    @Test
    void theFrameRecordHasItsSiteField() throws ReflectiveOperationException {
        Class<?> record = runtime(WeavingContract.FRAME_RECORD_CLASS);
        assertEquals(int.class, record.getField(WeavingContract.FRAME_RECORD_SITE_FIELD).getType());
    }

    @Test
    void anUnknownValueKindIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> WeavingContract.valueDescriptor("Short"));
    }

    private static Class<?> runtime(String internalName) throws ClassNotFoundException {
        return Class.forName(internalName.replace('/', '.'));
    }

    private static void assertStatic(Class<?> owner, String name, String descriptor) {
        assertTrue(Modifier.isStatic(find(owner, name, descriptor).getModifiers()), name + " is static");
    }

    private static void assertInstance(Class<?> owner, String name, String descriptor) {
        assertTrue(!Modifier.isStatic(find(owner, name, descriptor).getModifiers()), name + " is an instance method");
    }

    private static Method find(Class<?> owner, String name, String descriptor) {
        return Arrays.stream(owner.getMethods())
                .filter(m -> m.getName().equals(name)
                        && MethodType.methodType(m.getReturnType(), m.getParameterTypes()).toMethodDescriptorString()
                                .equals(descriptor))
                .findFirst()
                .orElseThrow(() -> new AssertionError(owner.getName() + " has no public " + name + descriptor));
    }
}
