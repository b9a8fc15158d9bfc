package dev.weft;

import dev.weft.internal.woven.WovenFrames;
import dev.weft.internal.woven.WovenMethods;

import java.lang.reflect.Method;
import java.util.List;
import java.util.Map;

/**
 * Checks frames given to {@link CoroutineBase#deserialize} against the weaver's record of their
 * methods, so that stale or tampered frames are refused with a precise message before any of
 * them is restored: never a {@code VerifyError}, a {@code ClassCastException} inside woven code,
 * or a coroutine resumed in a wrong state.
 */
final class FrameValidator {

    private static final String SYMMETRIC_SUSPENSIONS = "yield()V yieldTo(Ldev/weft/Coroutine;)V";
    private static final String ASYMMETRIC_SUSPENSION = "ret(Ljava/lang/Object;)Ljava/lang/Object;";

    private final CoroutineBase coroutine;
    private final CoroutineFrame[] frames;

    private FrameValidator(CoroutineBase coroutine, CoroutineFrame[] frames) {
        this.coroutine = coroutine;
        this.frames = frames;
    }

    /** Throws {@link IllegalArgumentException} saying which frame, and which slot, does not fit. */
    static void validate(CoroutineBase coroutine, CoroutineFrame[] frames) {
        if (frames == null) {
            throw new NullPointerException("frames");
        }
        new FrameValidator(coroutine, frames).validate();
    }

    private void validate() {
        for (int i = 0; i < frames.length; i++) {
            CoroutineFrame frame = frames[i];
            if (frame == null || frame.method == null) {
                throw refuse(i, "has no method");
            }
            WovenMethods.Site site = siteOf(i, frame);
            checkShape(i, frame, site);
            for (int slot = 0; slot < site.locals().size(); slot++) {
                checkSlot(i, frame, slot, site.locals().get(slot));
            }
            for (int j = 0; j < site.stack().size(); j++) {
                checkSlot(i, frame, site.locals().size() + j, site.stack().get(j));
            }
            checkChain(i, site);
        }
    }

    private WovenMethods.Site siteOf(int i, CoroutineFrame frame) {
        Method method = frame.method;
        WovenMethods table = WovenMethods.of(method.getDeclaringClass());
        if (table == null) {
            throw refuse(i, "is in " + method.getDeclaringClass().getName() + ", which is not woven");
        }
        WovenMethods.WovenMethod woven = table.method(method.getName() + WovenFrames.descriptorOf(method));
        if (woven == null || woven.unsupported() != null) {
            throw refuse(i, "is in " + method + ", which is not woven"
                    + (woven == null ? "" : ": " + woven.unsupported()));
        }
        WovenMethods.Site site = woven.sites().get(frame.bci);
        if (site == null) {
            throw refuse(i, "has bci " + frame.bci + ", which is not a suspension site of " + method
                    + " (its sites: " + woven.sites().keySet() + ")");
        }
        return site;
    }

    private void checkShape(int i, CoroutineFrame frame, WovenMethods.Site site) {
        if (frame.localCount != site.locals().size() || frame.expressionCount != site.stack().size()) {
            throw refuse(i, "has " + frame.localCount + " locals and " + frame.expressionCount
                    + " stack slots, but its method has " + site.locals().size() + " and " + site.stack().size()
                    + " at bci " + frame.bci);
        }
        int size = frame.localCount + frame.expressionCount;
        if (frame.scalarValues == null || frame.objectValues == null || frame.scalarValues.length != size
                || frame.objectValues.length != size) {
            throw refuse(i, "does not have " + size + " scalar and object values");
        }
    }

    private void checkSlot(int i, CoroutineFrame frame, int slot, String code) {
        Object object = frame.objectValues[slot];
        long scalar = frame.scalarValues[slot];
        switch (code.charAt(0)) {
            case '_', '-' -> {
                if (object != null || scalar != 0) {
                    throw refuse(i, "slot " + slot + " holds a value, but it is dead at bci " + frame.bci
                            + " and must be empty");
                }
            }
            case 'I', 'F' -> {
                requireNoObject(i, slot, object, code);
                if (scalar != (int) scalar) {
                    throw refuse(i, "slot " + slot + " holds " + scalar + ", which does not fit its " + kind(code));
                }
            }
            case 'J', 'D' -> requireNoObject(i, slot, object, code);
            default -> checkReference(i, frame, slot, code, object, scalar);
        }
    }

    private void requireNoObject(int i, int slot, Object object, String code) {
        if (object != null) {
            throw refuse(i, "slot " + slot + " holds a " + object.getClass().getName() + " where its method has "
                    + kind(code));
        }
    }

    private void checkReference(int i, CoroutineFrame frame, int slot, String code, Object object, long scalar) {
        if (scalar != 0) {
            throw refuse(i, "slot " + slot + " holds the number " + scalar + " where its method has a reference");
        }
        if (object == null) {
            return;
        }
        Class<?> type = typeOf(i, frame, code);
        if (!type.isInstance(object)) {
            throw refuse(i, "slot " + slot + " holds a " + object.getClass().getName() + " where its method has a "
                    + type.getName());
        }
    }

    /** Per class whose frames are checked, the classes its slot descriptors name, as its loader finds them. */
    private static final ClassValue<Map<String, Class<?>>> SLOT_TYPES = new ClassValue<>() {
        @Override
        protected Map<String, Class<?>> computeValue(Class<?> type) {
            return new java.util.concurrent.ConcurrentHashMap<>();
        }
    };

    private Class<?> typeOf(int i, CoroutineFrame frame, String descriptor) {
        Class<?> owner = frame.method.getDeclaringClass();
        Class<?> type = SLOT_TYPES.get(owner).get(descriptor);
        if (type != null) {
            return type;
        }
        String name = descriptor.startsWith("L") ? descriptor.substring(1, descriptor.length() - 1).replace('/', '.')
                : descriptor.replace('/', '.');
        try {
            type = Class.forName(name, false, owner.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw refuse(i, "needs class " + name + ", which cannot be found");
        }
        SLOT_TYPES.get(owner).put(descriptor, type);
        return type;
    }

    private static String kind(String code) {
        return switch (code.charAt(0)) {
            case 'I' -> "an int";
            case 'F' -> "a float";
            case 'J' -> "a long";
            case 'D' -> "a double";
            default -> "a reference";
        };
    }

    /** Frame {@code i} must be suspended in a call of frame {@code i+1}'s method, the innermost one in a Weft suspension. */
    private void checkChain(int i, WovenMethods.Site site) {
        if (i == frames.length - 1) {
            String suspensions = coroutine instanceof Coroutine ? SYMMETRIC_SUSPENSIONS : ASYMMETRIC_SUSPENSION;
            if (!List.of(suspensions.split(" ")).contains(site.targetKey())) {
                throw refuse(i, "is the innermost frame, but is suspended in a call of " + site.target()
                        + " rather than in " + suspensions.replace(" ", " or ") + " (a frame of the chain is missing?)");
            }
            return;
        }
        if (frames[i + 1] == null || frames[i + 1].method == null) {
            return; // reported for that frame
        }
        Method next = frames[i + 1].method;
        String nextKey = next.getName() + WovenFrames.descriptorOf(next);
        boolean direct = site.targetKey().equals(nextKey);
        if (!direct && !receiverIsHidden(frames[i])) {
            throw refuse(i, "is suspended in a call of " + site.target() + ", but frame " + (i + 1) + " is "
                    + next.getDeclaringClass().getName() + "." + nextKey + ": the frames do not chain");
        }
    }

    /**
     * Whether the call frame {@code frame} is suspended in goes through a hidden class (a lambda
     * or method reference's proxy), which calls a method of another name: its receiver, the last
     * saved stack slot, is an instance of one.
     */
    private static boolean receiverIsHidden(CoroutineFrame frame) {
        int last = frame.localCount + frame.expressionCount - 1;
        if (frame.expressionCount == 0 || last >= frame.objectValues.length) {
            return false;
        }
        Object receiver = frame.objectValues[last];
        return receiver != null && receiver.getClass().isHidden();
    }

    private IllegalArgumentException refuse(int i, String why) {
        return new IllegalArgumentException("cannot deserialize into " + coroutine + ": frame " + i + " of "
                + frames.length + " (" + frames[i] + ") " + why);
    }
}
