package dev.weft;

import dev.weft.internal.woven.Fiber;
import dev.weft.internal.woven.WovenFrames;
import dev.weft.internal.woven.WovenMethods;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a suspended woven-engine coroutine's {@link Fiber} as {@link CoroutineFrame}s, and
 * writes frames into one: what {@code serialize} and {@code deserialize} are on the woven
 * engine. Nothing runs: the twins saved exactly the slots of their site's table entry (see the
 * weaver's {@code TwinRewriter}), per frame, innermost first: the operand stack's values from the
 * top (the receiver first), the live locals from the last, the frame's class, and its site id.
 * Confined to the coroutine's owner thread.
 */
final class FiberFrames {

    private static final String UNUSED = "_";
    private static final String SECOND_HALF = "-";

    private FiberFrames() {
    }

    /** The frames saved in {@code fiber}, outermost first; the first is an activation of {@code entry}. */
    static CoroutineFrame[] read(Fiber fiber, Method entry) {
        Object[] references = fiber.savedReferences();
        long[] primitives = fiber.savedPrimitives();
        int r = references.length;
        int p = primitives.length;
        List<CoroutineFrame> frames = new ArrayList<>();
        String key = key(entry);
        while (p > 0) {
            int bci = (int) primitives[--p];
            Class<?> owner = (Class<?>) references[--r];
            WovenMethods.Site site = site(owner, key, bci);
            int localCount = site.locals().size();
            List<String> codes = codes(site);
            long[] scalars = new long[codes.size()];
            Object[] objects = new Object[codes.size()];
            for (int slot = 0; slot < codes.size(); slot++) {
                String code = codes.get(slot);
                if (isReference(code)) {
                    objects[slot] = references[--r];
                } else if (isPrimitive(code)) {
                    scalars[slot] = primitives[--p];
                }
            }
            frames.add(new CoroutineFrame(WovenFrames.method(owner, key), bci, localCount, codes.size() - localCount,
                    scalars, objects));
            key = site.targetKey();
        }
        return frames.toArray(new CoroutineFrame[0]);
    }

    /** Replaces what {@code fiber} holds by {@code frames}, which {@link FrameValidator} has checked. */
    static void write(Fiber fiber, CoroutineFrame[] frames) {
        List<Object> references = new ArrayList<>();
        List<Long> primitives = new ArrayList<>();
        for (int i = frames.length - 1; i >= 0; i--) {
            CoroutineFrame frame = frames[i];
            Class<?> owner = frame.method.getDeclaringClass();
            List<String> codes = codes(site(owner, key(frame.method), frame.bci));
            for (int slot = codes.size() - 1; slot >= 0; slot--) {
                String code = codes.get(slot);
                if (isReference(code)) {
                    references.add(frame.objectValues[slot]);
                } else if (isPrimitive(code)) {
                    primitives.add(frame.scalarValues[slot]);
                }
            }
            references.add(owner);
            primitives.add((long) frame.bci);
        }
        fiber.replaceSavedFrames(references.toArray(), primitives.stream().mapToLong(Long::longValue).toArray());
    }

    /**
     * Throws {@link IllegalArgumentException} unless the outermost of {@code frames} is an
     * activation of {@code entry}, the method the woven engine enters {@code c}'s body by (it
     * cannot call another one, as the native engine does by reflection).
     */
    static void checkEntry(CoroutineBase c, CoroutineFrame[] frames, Method entry) {
        if (frames.length > 0 && !frames[0].method.equals(entry)) {
            throw new IllegalArgumentException("cannot deserialize into " + c + " on the woven engine: its outermost"
                    + " frame is an activation of " + frames[0].method + ", but the engine enters its body by "
                    + (entry == null ? "nothing (it has no body)" : entry.toString()));
        }
    }

    private static String key(Method method) {
        return method.getName() + WovenFrames.descriptorOf(method);
    }

    private static WovenMethods.Site site(Class<?> owner, String key, int bci) {
        WovenMethods table = WovenMethods.of(owner);
        WovenMethods.WovenMethod method = table == null ? null : table.method(key);
        WovenMethods.Site site = method == null ? null : method.sites().get(bci);
        if (site == null) {
            throw new IllegalStateException("no suspension site " + bci + " of " + owner.getName() + "." + key
                    + " in its woven table: the saved frames do not match the class");
        }
        return site;
    }

    /** The type codes of a site's slots: locals, then the operand stack bottom first. */
    private static List<String> codes(WovenMethods.Site site) {
        List<String> codes = new ArrayList<>(site.locals());
        codes.addAll(site.stack());
        return codes;
    }

    private static boolean isReference(String code) {
        return code.startsWith("L") || code.startsWith("[");
    }

    private static boolean isPrimitive(String code) {
        return !code.equals(UNUSED) && !code.equals(SECOND_HALF) && !isReference(code);
    }
}
