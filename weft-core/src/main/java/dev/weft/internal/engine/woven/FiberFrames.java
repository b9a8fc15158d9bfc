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
import java.util.HashMap;
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
        Layouts layouts = new Layouts();
        for (int f = 0; f < count; f++) {
            long[] primitives = FIBERS.framePrimitives(fiber, f);
            int bci = (int) primitives[primitives.length - 1];
            Layout layout = layouts.at(FIBERS.frameClass(fiber, f), FIBERS.frameMethod(fiber, f), bci);
            frames[f] = layout.frame(layouts.wovenMethod(), FIBERS.frameReferences(fiber, f), primitives);
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
        Layouts layouts = new Layouts();
        for (int f = frames.length - 1; f >= 0; f--) { // innermost first, as unwinding saves them
            CoroutineFrame frame = frames[f];
            Layout layout = layouts.at(frame.method.getDeclaringClass(), frame.method, frame.bci);
            Object self = Modifier.isStatic(frame.method.getModifiers()) ? null : frame.objectValues[0];
            FIBERS.addSavedFrame(fiber, layouts.wovenMethod(), self, frame.objectValues, layout.referenceSlots,
                    frame.scalarValues, layout.primitiveSlots, frame.bci);
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
            boolean sameAsAbove = f > 0 && (method == frames[f - 1].method || method.equals(frames[f - 1].method));
            if (!sameAsAbove && !Lookup.of(method.getDeclaringClass(), method).hasTwin) {
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
        /** Whether the method has a twin, by which the woven engine runs its frames. */
        final boolean hasTwin;
        /** The layout of each site of the method's table, by its bci. */
        private final Map<Integer, Layout> layouts = new HashMap<>();

        private Lookup(Class<?> owner, String key) {
            this.owner = owner;
            this.key = key;
            this.method = WovenFrames.method(owner, key);
            this.hasTwin = method != null && Twins.twinOf(method) != null;
            WovenMethods methods = WovenMethods.of(owner);
            WovenMethods.WovenMethod table = methods == null ? null : methods.method(key);
            if (table != null) {
                table.sites().forEach((bci, site) -> layouts.put(bci, new Layout(site)));
            }
        }

        /** The lookup of {@code owner}'s woven method with {@code method}'s name and descriptor. */
        static Lookup of(Class<?> owner, Method method) {
            return OF_CLASS.get(owner).computeIfAbsent(method, m -> new Lookup(owner, key(m)));
        }

        Layout layout(int bci) {
            Layout layout = layouts.get(bci);
            if (layout == null) {
                throw new IllegalStateException("no suspension site " + bci + " of " + owner.getName() + "." + key
                        + " in its woven table: the saved frames do not match the class");
            }
            return layout;
        }
    }

    /**
     * The layouts of frames taken one after another, as a read or a write does: a recursion's
     * frames share their method and most often their site, which are looked up once per run.
     * Confined to one read or write.
     */
    private static final class Layouts {

        private Class<?> owner;
        private Method method;
        private Lookup lookup;
        private Layout layout;

        /** The layout of a frame of {@code owner}'s {@code method} suspended at {@code bci}. */
        Layout at(Class<?> owner, Method method, int bci) {
            if (owner != this.owner || method != this.method && !method.equals(this.method)) { // frames a caller built may hold equal copies
                lookup = Lookup.of(owner, method);
                this.owner = owner;
                this.method = method;
                layout = null;
            }
            if (layout == null || layout.bci != bci) {
                layout = lookup.layout(bci);
            }
            return layout;
        }

        /** The woven method of the last frame taken, as its class declares it. */
        Method wovenMethod() {
            return lookup.method;
        }
    }

    /**
     * Where a frame suspended at one site keeps each slot among the values its twin saved:
     * which slots went to the references and which to the primitives, in the order pushed
     * (slots from the last down, the receiver left out when it is in a local still, dead slots
     * and second halves left out). Immutable.
     */
    private static final class Layout {

        final int bci;
        final int localCount;
        final int slots;
        /** The local that holds the call's receiver, which is not saved again, or -1. */
        final int receiverLocal;
        final int[] referenceSlots;
        final int[] primitiveSlots;

        Layout(SiteTable.Site site) {
            bci = site.bci();
            localCount = site.locals().size();
            slots = localCount + site.stack().size();
            receiverLocal = site.receiverLocal();
            int[] references = new int[slots];
            int[] primitives = new int[slots];
            int r = 0;
            int p = 0;
            for (int slot = slots - 1; slot >= 0; slot--) {
                String code = code(site, slot);
                if (isReceiverInLocal(site, slot)) {
                    continue;
                } else if (isReference(code)) {
                    references[r++] = slot;
                } else if (isPrimitive(code)) {
                    primitives[p++] = slot;
                }
            }
            referenceSlots = Arrays.copyOf(references, r);
            primitiveSlots = Arrays.copyOf(primitives, p);
        }

        /** The frame of {@code method} at this site whose twin saved {@code references} and {@code primitives}, in push order. */
        CoroutineFrame frame(Method method, Object[] references, long[] primitives) {
            long[] scalars = new long[slots];
            Object[] objects = new Object[slots];
            for (int k = 0; k < referenceSlots.length; k++) {
                objects[referenceSlots[k]] = references[k];
            }
            for (int k = 0; k < primitiveSlots.length; k++) {
                scalars[primitiveSlots[k]] = primitives[k];
            }
            if (receiverLocal >= 0) {
                objects[slots - 1] = objects[receiverLocal];
            }
            return new CoroutineFrame(method, bci, localCount, slots - localCount, scalars, objects);
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
