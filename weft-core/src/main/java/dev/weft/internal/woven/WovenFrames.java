package dev.weft.internal.woven;

import dev.weft.CoroutineFrame;
import dev.weft.internal.engine.Engines;
import dev.weft.internal.frames.FrameTransfer;


import java.lang.invoke.MethodType;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What code woven by {@code weft-weaver} calls to capture and restore its frames. Not API: the
 * weaver emits these calls, and their shape changes with it.
 *
 * <p>After each call that may suspend, woven code calls {@link #active()}; only when it is
 * non-zero does it ask {@link #captureFrame} for a frame and, if it gets one, saves its live
 * locals and operand stack into it and returns at once. Its prologue likewise asks
 * {@link #restoring} only when {@code active()} is non-zero, and rebuilds its locals and operand
 * stack from the frame it gets.
 *
 * <p>Any thread. The frames belong to the native-engine coroutine running innermost on the
 * calling thread; nothing here starts or ends a capture or restore (the engine does).
 */
public final class WovenFrames {

    /** The descriptors of each class's methods, kept with the class: no class loader is kept alive by them. */
    private static final ClassValue<Map<Method, String>> DESCRIPTORS = new ClassValue<>() {
        @Override
        protected Map<Method, String> computeValue(Class<?> type) {
            return new ConcurrentHashMap<>();
        }
    };
    private static final ClassValue<Map<String, Method>> METHODS = new ClassValue<>() {
        @Override
        protected Map<String, Method> computeValue(Class<?> type) {
            return new ConcurrentHashMap<>();
        }
    };

    private WovenFrames() {
    }

    /**
     * Read by woven code after each call that may suspend, and in its prologue: not zero while
     * any capture or restore is in progress in the JVM, when it must ask for a frame. One plain
     * static read once inlined.
     */
    public static int active() {
        return FrameTransfer.activeCount();
    }

    /**
     * If the coroutine running on this thread is being captured, a new frame for the capture,
     * added to it, which the caller fills before it returns at once; otherwise null, and the
     * caller goes on.
     *
     * @param owner the woven class
     * @param methodKey the method's name followed by its descriptor
     */
    public static CoroutineFrame captureFrame(Class<?> owner, String methodKey, int bci, int localCount,
            int expressionCount) {
        FrameTransfer t = Engines.nativeTransfer();
        if (t == null || !t.isCapturing()) {
            return null;
        }
        int size = localCount + expressionCount;
        CoroutineFrame frame = new CoroutineFrame(t.method(owner, methodKey), bci, localCount, expressionCount,
                new long[size], new Object[size]);
        t.add(frame);
        return frame;
    }

    /**
     * The frame that the woven method {@code methodKey} of {@code owner} must rebuild, or null
     * if the current coroutine is not being restored (or is done restoring).
     */
    public static CoroutineFrame restoring(Class<?> owner, String methodKey) {
        FrameTransfer t = Engines.nativeTransfer();
        if (t == null || t.isCapturing()) {
            return null;
        }
        CoroutineFrame frame = t.take();
        // deserialize validated the chain; this catches only a frame handed to the wrong class
        if (frame != null && frame.method.getDeclaringClass() != owner) {
            throw new IllegalStateException("restoring " + frame + " into " + owner.getName() + "." + methodKey
                    + ": the frames do not chain");
        }
        return frame;
    }

    /** The error for a restored frame whose {@code bci} is not a suspension site of its method. */
    public static IllegalStateException notASite(CoroutineFrame frame) {
        return new IllegalStateException("restoring " + frame + ": bci " + frame.bci + " is not a suspension site");
    }

    public static void putInt(CoroutineFrame f, int slot, int value) {
        f.scalarValues[slot] = value;
    }

    public static void putLong(CoroutineFrame f, int slot, long value) {
        f.scalarValues[slot] = value;
    }

    public static void putFloat(CoroutineFrame f, int slot, float value) {
        f.scalarValues[slot] = Float.floatToRawIntBits(value);
    }

    public static void putDouble(CoroutineFrame f, int slot, double value) {
        f.scalarValues[slot] = Double.doubleToRawLongBits(value);
    }

    public static void putObject(CoroutineFrame f, int slot, Object value) {
        f.objectValues[slot] = value;
    }

    public static int getInt(CoroutineFrame f, int slot) {
        return (int) f.scalarValues[slot];
    }

    public static long getLong(CoroutineFrame f, int slot) {
        return f.scalarValues[slot];
    }

    public static float getFloat(CoroutineFrame f, int slot) {
        return Float.intBitsToFloat((int) f.scalarValues[slot]);
    }

    public static double getDouble(CoroutineFrame f, int slot) {
        return Double.longBitsToDouble(f.scalarValues[slot]);
    }

    public static Object getObject(CoroutineFrame f, int slot) {
        return f.objectValues[slot];
    }

    /** The method {@code methodKey} (name then descriptor) declared by {@code owner}; cached. */
    public static Method method(Class<?> owner, String methodKey) {
        return METHODS.get(owner).computeIfAbsent(methodKey, key -> find(owner, key));
    }

    private static Method find(Class<?> owner, String methodKey) {
        int paren = methodKey.indexOf('(');
        String name = methodKey.substring(0, paren);
        String descriptor = methodKey.substring(paren);
        return Arrays.stream(owner.getDeclaredMethods())
                .filter(m -> m.getName().equals(name) && descriptorOf(m).equals(descriptor))
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("no method " + methodKey + " in " + owner.getName()));
    }

    /** The JVM descriptor of {@code m}, such as {@code (ILjava/lang/String;)V}; cached. */
    public static String descriptorOf(Method m) {
        return DESCRIPTORS.get(m.getDeclaringClass()).computeIfAbsent(m,
                method -> MethodType.methodType(method.getReturnType(), method.getParameterTypes()).toMethodDescriptorString());
    }
}
