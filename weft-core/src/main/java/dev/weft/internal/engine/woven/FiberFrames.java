package dev.weft.internal.engine.woven;

import dev.weft.internal.contract.SiteTable;
import dev.weft.CoroutineFrame;
import dev.weft.internal.access.FiberAccess;
import dev.weft.internal.access.SharedAccess;
import dev.weft.internal.woven.Fiber;
import dev.weft.internal.woven.Twins;
import dev.weft.internal.woven.WovenFrames;
import dev.weft.internal.woven.WovenMethods;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Reads a suspended woven-engine coroutine's {@link Fiber} as {@link CoroutineFrame}s, and
 * writes frames into one: what {@code serialize} and {@code deserialize} are on the woven
 * engine. Nothing runs: the twins saved exactly the slots of their site's table entry (see the
 * weaver's {@code TwinRewriter}), per frame, in the order pushed: the receiver of the call in
 * progress (unless the table names the local it is in, {@link SiteTable.Site#receiverLocal}),
 * the operand stack's values below it from the top, the live locals from the last, and the site
 * id; the fiber keeps each frame's class beside.
 * Confined to the coroutine's owner thread.
 */
final class FiberFrames {

    private static final FiberAccess FIBERS = SharedAccess.fibers();

    private static final String UNUSED = "_";
    private static final String SECOND_HALF = "-";

    private FiberFrames() {
    }

    /**
     * The frames saved in {@code fiber}, outermost first. Each frame's method is the one whose
     * twin saved it, read from the twin's handle: not always the method its caller's site names
     * (a lambda's implementation is called through its interface method).
     */
    static CoroutineFrame[] read(Fiber fiber) {
        int count = FIBERS.frameCount(fiber);
        CoroutineFrame[] frames = new CoroutineFrame[count];
        Lookup last = null; // a recursion reads one method many times
        Method lastMethod = null;
        for (int f = 0; f < count; f++) {
            Object[] references = FIBERS.frameReferences(fiber, f);
            long[] primitives = FIBERS.framePrimitives(fiber, f);
            int r = references.length;
            int p = primitives.length;
            int bci = (int) primitives[--p];
            Class<?> owner = FIBERS.frameClass(fiber, f);
            Method method = FIBERS.frameMethod(fiber, f);
            if (last == null || last.owner != owner || lastMethod != method) {
                last = Lookup.of(owner, method);
                lastMethod = method;
            }
            SiteTable.Site site = last.site(bci);
            int localCount = site.locals().size();
            int slots = localCount + site.stack().size();
            long[] scalars = new long[slots];
            Object[] objects = new Object[slots];
            for (int slot = 0; slot < slots; slot++) {
                String code = code(site, slot);
                if (isReceiverInLocal(site, slot)) {
                    objects[slot] = objects[site.receiverLocal()];
                } else if (isReference(code)) {
                    objects[slot] = references[--r];
                } else if (isPrimitive(code)) {
                    scalars[slot] = primitives[--p];
                }
            }
            frames[f] = new CoroutineFrame(last.method, bci, localCount, slots - localCount, scalars, objects);
        }
        return frames;
    }

    /**
     * Replaces what {@code fiber} holds by {@code frames}, which {@link FrameValidator} has checked.
     * A frame's receiver, if its method is not static, is its local 0, which woven code always
     * saves.
     */
    static void write(Fiber fiber, CoroutineFrame[] frames) {
        FIBERS.discardSavedFrames(fiber);
        Lookup last = null;
        for (int f = frames.length - 1; f >= 0; f--) { // innermost first, as unwinding saves them
            CoroutineFrame frame = frames[f];
            if (last == null || !last.method.equals(frame.method)) {
                last = Lookup.of(frame.method.getDeclaringClass(), frame.method);
            }
            SiteTable.Site site = last.site(frame.bci);
            int slots = site.locals().size() + site.stack().size();
            Object[] references = new Object[slots];
            long[] primitives = new long[slots + 1];
            int r = 0;
            int p = 0;
            for (int slot = slots - 1; slot >= 0; slot--) {
                String code = code(site, slot);
                if (isReceiverInLocal(site, slot)) {
                    continue; // the validator checked that it is the local's object
                } else if (isReference(code)) {
                    references[r++] = frame.objectValues[slot];
                } else if (isPrimitive(code)) {
                    primitives[p++] = frame.scalarValues[slot];
                }
            }
            primitives[p++] = frame.bci;
            Object self = Modifier.isStatic(frame.method.getModifiers()) ? null : frame.objectValues[0];
            FIBERS.addSavedFrame(fiber, last.method, self, Arrays.copyOf(references, r), Arrays.copyOf(primitives, p));
        }
    }

    /**
     * Throws {@link IllegalArgumentException} naming the first of {@code frames} whose method has
     * no twin, before anything changes: the woven engine runs a frame through its method's twin,
     * which the weaver adds to class files of Java 7 and later only (the native engine runs the
     * woven method itself, and takes such frames).
     */
    static void checkTwins(CoroutineFrame[] frames) {
        for (int f = 0; f < frames.length; f++) {
            Method method = frames[f].method;
            if ((f == 0 || !method.equals(frames[f - 1].method)) && Twins.twinOf(method) == null) {
                throw new IllegalArgumentException("frame " + f + " of " + frames.length + " (" + frames[f] + ") is in "
                        + method + ", which has no twin, so the woven engine cannot run it (the weaver gives twins to"
                        + " class files of Java 7 and later only): deserialize these frames into a coroutine of the"
                        + " native engine");
            }
        }
    }

    private static String key(Method method) {
        return method.getName() + WovenFrames.descriptorOf(method);
    }

    /**
     * One woven method of a class: its {@code Method} and the sites of its table. Immutable; made
     * once per class and method, and kept as long as the class (a class value).
     */
    private static final class Lookup {

        private static final ClassValue<Map<Method, Lookup>> OF_CLASS = new ClassValue<>() {
            @Override
            protected Map<Method, Lookup> computeValue(Class<?> type) {
                return new ConcurrentHashMap<>();
            }
        };

        final Class<?> owner;
        final String key;
        final Method method;
        private final WovenMethods.WovenMethod table;

        private Lookup(Class<?> owner, String key) {
            this.owner = owner;
            this.key = key;
            this.method = WovenFrames.method(owner, key);
            WovenMethods methods = WovenMethods.of(owner);
            this.table = methods == null ? null : methods.method(key);
        }

        /** The lookup of {@code owner}'s woven method with {@code method}'s name and descriptor. */
        static Lookup of(Class<?> owner, Method method) {
            return OF_CLASS.get(owner).computeIfAbsent(method, m -> new Lookup(owner, key(m)));
        }

        SiteTable.Site site(int bci) {
            SiteTable.Site site = table == null ? null : table.sites().get(bci);
            if (site == null) {
                throw new IllegalStateException("no suspension site " + bci + " of " + owner.getName() + "." + key
                        + " in its woven table: the saved frames do not match the class");
            }
            return site;
        }
    }

    /** The type code of a site's slot: its locals first, then its operand stack, bottom first. */
    private static String code(SiteTable.Site site, int slot) {
        int locals = site.locals().size();
        return slot < locals ? site.locals().get(slot) : site.stack().get(slot - locals);
    }

    /** Whether {@code slot} is the call's receiver and saved only as the local it was loaded from. */
    private static boolean isReceiverInLocal(SiteTable.Site site, int slot) {
        return site.receiverLocal() >= 0 && slot == site.locals().size() + site.stack().size() - 1;
    }

    private static boolean isReference(String code) {
        return code.startsWith("L") || code.startsWith("[");
    }

    private static boolean isPrimitive(String code) {
        return !code.equals(UNUSED) && !code.equals(SECOND_HALF) && !isReference(code);
    }
}
