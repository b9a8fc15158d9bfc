package dev.weft.internal.frames;


import dev.weft.AsymCoroutine;
import dev.weft.Coroutine;
import dev.weft.CoroutineBase;
import dev.weft.CoroutineFrame;

import java.util.List;

/**
 * Checks frames given to {@link CoroutineBase#deserialize} against the weaver's record of their
 * methods, so that stale or tampered frames are refused with a precise message before any of
 * them is restored: never a {@code VerifyError}, a {@code ClassCastException} inside woven code,
 * or a coroutine resumed in a wrong state.
 */
public final class FrameValidator {

    private static final String SYMMETRIC_SUSPENSIONS = "yield()V yieldTo(Ldev/weft/Coroutine;)V";
    private static final String ASYMMETRIC_SUSPENSION = "ret(Ljava/lang/Object;)Ljava/lang/Object;";

    private final CoroutineBase coroutine;
    private final CoroutineFrame[] frames;

    private FrameValidator(CoroutineBase coroutine, CoroutineFrame[] frames) {
        this.coroutine = coroutine;
        this.frames = frames;
    }

    /** Throws {@link IllegalArgumentException} saying which frame, and which slot, does not fit. */
    public static void validate(CoroutineBase coroutine, CoroutineFrame[] frames) {
        new FrameValidator(coroutine, frames).validate();
    }

    private void validate() {
        MethodCheck[] methods = new MethodCheck[frames.length];
        for (int i = 0; i < frames.length; i++) {
            CoroutineFrame frame = frames[i];
            if (frame == null || frame.method == null) {
                throw refuse(i, "has no method");
            }
            boolean sameAsAbove = i > 0 && frame.method == frames[i - 1].method; // recursion: common, and spares a lookup
            methods[i] = sameAsAbove ? methods[i - 1] : MethodCheck.of(frame.method);
        }
        SiteCheck[] sites = new SiteCheck[frames.length];
        for (int i = 0; i < frames.length; i++) {
            sites[i] = siteOf(i, frames[i], methods[i]);
            checkShape(i, frames[i], sites[i]);
            for (int slot = 0; slot < sites[i].codes.length; slot++) {
                checkSlot(i, frames[i], slot, sites[i]);
            }
        }
        for (int i = 0; i < frames.length; i++) {
            checkChain(i, sites[i], i + 1 < frames.length ? methods[i + 1] : null);
        }
    }

    private SiteCheck siteOf(int i, CoroutineFrame frame, MethodCheck method) {
        if (method.refusal != null) {
            throw refuse(i, method.refusal);
        }
        SiteCheck site = method.siteAt(frame.bci);
        if (site == null) {
            throw refuse(i, "has bci " + frame.bci + ", which is not a suspension site of " + frame.method
                    + " (its sites: " + method.siteList() + ")");
        }
        return site;
    }

    private void checkShape(int i, CoroutineFrame frame, SiteCheck site) {
        if (frame.localCount != site.localCount || frame.expressionCount != site.codes.length - site.localCount) {
            throw refuse(i, "has " + frame.localCount + " locals and " + frame.expressionCount
                    + " stack slots, but its method has " + site.localCount + " and "
                    + (site.codes.length - site.localCount) + " at bci " + frame.bci);
        }
        int size = site.codes.length;
        if (frame.scalarValues == null || frame.objectValues == null || frame.scalarValues.length != size
                || frame.objectValues.length != size) {
            throw refuse(i, "does not have " + size + " scalar and object values");
        }
    }

    private void checkSlot(int i, CoroutineFrame frame, int slot, SiteCheck site) {
        Object object = frame.objectValues[slot];
        long scalar = frame.scalarValues[slot];
        switch (site.kinds[slot]) {
            case '_', '-' -> {
                if (object != null || scalar != 0) {
                    throw refuse(i, "slot " + slot + " holds a value, but it is dead at bci " + frame.bci
                            + " and must be empty");
                }
            }
            case 'I', 'F' -> {
                requireNoObject(i, slot, object, site.codes[slot]);
                if (scalar != (int) scalar) {
                    throw refuse(i, "slot " + slot + " holds " + scalar + ", which does not fit its "
                            + kind(site.codes[slot]));
                }
            }
            case 'J', 'D' -> requireNoObject(i, slot, object, site.codes[slot]);
            default -> checkReference(i, frame, slot, site, object, scalar);
        }
    }

    private void requireNoObject(int i, int slot, Object object, String code) {
        if (object != null) {
            throw refuse(i, "slot " + slot + " holds a " + object.getClass().getName() + " where its method has "
                    + kind(code));
        }
    }

    private void checkReference(int i, CoroutineFrame frame, int slot, SiteCheck site, Object object, long scalar) {
        if (scalar != 0) {
            throw refuse(i, "slot " + slot + " holds the number " + scalar + " where its method has a reference");
        }
        if (object == null) {
            return;
        }
        Class<?> type = site.typeAt(slot, frame.method.getDeclaringClass());
        if (type == null) {
            throw refuse(i, "needs class " + SiteCheck.className(site.codes[slot]) + ", which cannot be found");
        }
        if (object.getClass() != type && !type.isInstance(object)) {
            throw refuse(i, "slot " + slot + " holds a " + object.getClass().getName() + " where its method has a "
                    + type.getName());
        }
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
    private void checkChain(int i, SiteCheck site, MethodCheck next) {
        if (next == null) {
            String suspensions = coroutine instanceof Coroutine ? SYMMETRIC_SUSPENSIONS : ASYMMETRIC_SUSPENSION;
            if (!List.of(suspensions.split(" ")).contains(site.targetKey)) {
                throw refuse(i, "is the innermost frame, but is suspended in a call of " + site.target
                        + " rather than in " + suspensions.replace(" ", " or ") + " (a frame of the chain is missing?)");
            }
            return;
        }
        boolean direct = site.calls(next);
        if (!direct && !receiverIsHidden(frames[i])) {
            throw refuse(i, "is suspended in a call of " + site.target + ", but frame " + (i + 1) + " is "
                    + frames[i + 1].method.getDeclaringClass().getName() + "." + next.key + ": the frames do not chain");
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
