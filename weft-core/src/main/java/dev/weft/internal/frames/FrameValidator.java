package dev.weft.internal.frames;

import dev.weft.AsymCoroutine;
import dev.weft.Coroutine;
import dev.weft.CoroutineBase;
import dev.weft.CoroutineFrame;
import dev.weft.Engine;
import dev.weft.internal.contract.SiteTable;
import dev.weft.internal.woven.SourceTerms;
import dev.weft.internal.woven.WovenLambdas;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.List;
import java.util.Objects;

/**
 * Checks frames given to {@link CoroutineBase#deserialize} against the weaver's record of their
 * methods, so that stale or tampered frames are refused with a precise message before any of
 * them is restored: never a {@code VerifyError}, a {@code ClassCastException} inside woven code,
 * or a coroutine resumed in a wrong state.
 *
 * <p>What it guarantees of frames it accepts: each method is woven code of this build; each
 * {@code bci} is one of its suspension sites; each slot holds what the weaver recorded there
 * (dead slots empty, ints within their recorded width, which is the type a
 * {@code LocalVariableTable} declares or else no wider than any type the slot may have,
 * references of the recorded class); every {@code this} and every call's receiver is non-null,
 * and a receiver that the code loaded from a local still in it is that local's object; each
 * frame is suspended in a call that, as the JVM would select it for the saved receiver, reaches
 * exactly the next frame's method, on that frame's own {@code this}; a call through a lambda's
 * proxy reaches its implementation method, and only on an engine that can run it; the innermost
 * frame is in the suspension operation of this very coroutine. Stateless but for caches; any
 * thread.
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

    /**
     * A copy of {@code frames}, checked: later changes to {@code frames} or their value arrays
     * cannot slip into what is restored. Throws {@link IllegalArgumentException} saying which
     * frame, and which slot, does not fit, in source terms ({@link SourceTerms}: the frame as
     * {@code Class.method(File.java:line)}, a local by its name or as {@code this}) and then the
     * JVM's ({@code (bci 23, local slot 3)}), and {@link NullPointerException} if {@code frames}
     * is null.
     */
    public static CoroutineFrame[] validatedCopy(CoroutineBase coroutine, CoroutineFrame[] frames) {
        CoroutineFrame[] copy = new CoroutineFrame[Objects.requireNonNull(frames, "frames").length];
        new FrameValidator(coroutine, copy).copyAndValidate(frames);
        return copy;
    }

    /**
     * Copies each frame and checks its copy at once, while its values are fresh in the cache;
     * then checks that the copies chain.
     */
    private void copyAndValidate(CoroutineFrame[] given) {
        MethodCheck[] methods = new MethodCheck[given.length];
        SiteCheck[] sites = new SiteCheck[given.length];
        for (int i = 0; i < given.length; i++) {
            CoroutineFrame frame = FrameTransfer.copy(given[i]);
            frames[i] = frame;
            if (frame == null || frame.method == null) {
                throw refuse(i, "has no method");
            }
            boolean sameAsAbove = i > 0 && frame.method == frames[i - 1].method; // recursion: common, and spares lookups
            methods[i] = sameAsAbove ? methods[i - 1] : MethodCheck.of(frame.method);
            sites[i] = sameAsAbove && frame.bci == frames[i - 1].bci ? sites[i - 1] : siteOf(i, frame, methods[i]);
            checkShape(i, frame, sites[i]);
            checkSlots(i, frame, sites[i]);
            checkReceivers(i, frame, sites[i]);
        }
        for (int i = 0; i < frames.length; i++) {
            checkChain(i, sites[i], i + 1 < frames.length ? methods[i + 1] : null);
        }
    }

    /** A frame's {@code this}, and the receiver of the call it is suspended in, must not be null. */
    private void checkReceivers(int i, CoroutineFrame frame, SiteCheck site) {
        if (!Modifier.isStatic(frame.method.getModifiers()) && frame.objectValues[0] == null) {
            throw refuse(i, jvm(frame, 0), "has a null this");
        }
        int receiverSlot = frame.objectValues.length - 1;
        if (site.hasReceiver && receiver(frame) == null) {
            throw refuse(i, jvm(frame, receiverSlot), "has a null receiver for its call of " + site.target);
        }
        if (site.receiverLocal >= 0 && receiver(frame) != frame.objectValues[site.receiverLocal]) {
            throw refuse(i, jvm(frame, receiverSlot) + ", local slot " + site.receiverLocal,
                    "has a receiver for its call of " + site.target + " that is not the object in "
                    + SourceTerms.local(frame.method, frame.bci, site.receiverLocal) + ", from which its code loaded it");
        }
    }

    /** The receiver of the call {@code frame} is suspended in: its last stack slot. */
    private static Object receiver(CoroutineFrame frame) {
        return frame.expressionCount == 0 ? null : frame.objectValues[frame.objectValues.length - 1];
    }

    private SiteCheck siteOf(int i, CoroutineFrame frame, MethodCheck method) {
        if (method.refusal != null) {
            throw refuse(i, method.refusal);
        }
        SiteCheck site = method.siteAt(frame.bci);
        if (site == null) {
            throw refuse(i, null, "has bci " + frame.bci + ", which is not a suspension site of " + frame.method
                    + " (its sites: " + method.siteList() + ")");
        }
        return site;
    }

    private void checkShape(int i, CoroutineFrame frame, SiteCheck site) {
        if (frame.localCount != site.localCount || frame.expressionCount != site.codes.length - site.localCount) {
            throw refuse(i, null, "has " + frame.localCount + " locals and " + frame.expressionCount
                    + " stack slots, but its method has " + site.localCount + " and "
                    + (site.codes.length - site.localCount) + " at bci " + frame.bci);
        }
        int size = site.codes.length;
        if (frame.scalarValues == null || frame.objectValues == null || frame.scalarValues.length != size
                || frame.objectValues.length != size) {
            throw refuse(i, "does not have " + size + " scalar and object values");
        }
    }

    /** Checks each slot of {@code frame}, whose arrays {@link #checkShape} found of its site's size. */
    private void checkSlots(int i, CoroutineFrame frame, SiteCheck site) {
        Object[] objects = frame.objectValues;
        long[] scalars = frame.scalarValues;
        char[] kinds = site.kinds;
        for (int slot = 0; slot < kinds.length; slot++) {
            checkSlot(i, frame, slot, site, objects[slot], scalars[slot]);
        }
    }

    private void checkSlot(int i, CoroutineFrame frame, int slot, SiteCheck site, Object object, long scalar) {
        switch (site.kinds[slot]) {
            case '_', '-' -> {
                if (object != null || scalar != 0) {
                    throw refuseSlot(i, slot, "holds a value, but it is dead there and must be empty");
                }
            }
            case 'I', 'F', 'Z', 'B', 'C', 'S', SiteTable.BYTE_AND_CHAR, SiteTable.SHORT_AND_CHAR -> {
                requireNoObject(i, slot, object, site.codes[slot]);
                if (!fits(site.kinds[slot], scalar)) {
                    throw refuseSlot(i, slot, "holds " + scalar + ", which does not fit its "
                            + kind(site.codes[slot]) + ("ZBCS".indexOf(site.kinds[slot]) < 0 ? ""
                            : " (every value the code can give it there does)"));
                }
            }
            case 'J', 'D' -> requireNoObject(i, slot, object, site.codes[slot]);
            default -> checkReference(i, frame, slot, site, object, scalar);
        }
    }

    private void requireNoObject(int i, int slot, Object object, String code) {
        if (object != null) {
            throw refuseSlot(i, slot, "holds a " + object.getClass().getName() + " where its method has "
                    + kind(code));
        }
    }

    private void checkReference(int i, CoroutineFrame frame, int slot, SiteCheck site, Object object, long scalar) {
        if (scalar != 0) {
            throw refuseSlot(i, slot, "holds the number " + scalar + " where its method has a reference");
        }
        if (object == null) {
            if (slot == 0 && !Modifier.isStatic(frame.method.getModifiers())) {
                throw refuse(i, jvm(frame, 0), "has a null this");
            }
            if (site.isNonNull(slot)) {
                throw refuseSlot(i, slot, "holds null, which the code never leaves there"
                        + (slot == site.codes.length - 1 && site.hasReceiver ? " (the receiver of its call of "
                        + site.target + ")" : ""));
            }
            return;
        }
        Class<?> type = site.typeAt(slot, frame.method.getDeclaringClass());
        if (type == null) {
            throw refuse(i, jvm(frame, slot), "needs class " + SiteCheck.className(site.codes[slot]) + ", which cannot be found");
        }
        if (object.getClass() != type && !type.isInstance(object)) {
            throw refuseSlot(i, slot, "holds a " + object.getClass().getName() + " where its method has a "
                    + type.getName());
        }
    }

    /** Whether {@code scalar} is a value of the int-like or float kind {@code kind}. */
    private static boolean fits(char kind, long scalar) {
        return kind == 'F' ? scalar == (int) scalar : SiteTable.holds(kind, scalar);
    }

    private static String kind(String code) {
        return switch (code.charAt(0)) {
            case 'Z' -> "boolean";
            case 'B' -> "byte";
            case 'C' -> "char";
            case 'S' -> "short";
            case SiteTable.BYTE_AND_CHAR -> "byte or char (0 to 127, what both hold: no LocalVariableTable says which it is)";
            case SiteTable.SHORT_AND_CHAR -> "short or char (0 to 32767, what both hold: no LocalVariableTable says which it is)";
            case 'I' -> "an int";
            case 'F' -> "a float";
            case 'J' -> "a long";
            case 'D' -> "a double";
            default -> "a reference";
        };
    }

    /**
     * Frame {@code i} must be suspended in a call that reaches frame {@code i+1}'s method, on
     * that frame's {@code this}; the innermost one, in this coroutine's suspension operation.
     */
    private void checkChain(int i, SiteCheck site, MethodCheck next) {
        CoroutineFrame frame = frames[i];
        Object receiver = site.hasReceiver ? receiver(frame) : null;
        if (next == null) {
            checkInnermost(i, site, receiver);
            return;
        }
        CoroutineFrame callee = frames[i + 1];
        if (receiver != null && receiver.getClass().isHidden()) {
            checkThroughProxy(i, site, receiver, callee);
            return;
        }
        Method reached = reached(site, frame, receiver);
        if (!isMethodOf(reached, callee)) {
            throw refuse(i, "is suspended in a call of " + site.target + ", which reaches "
                    + (reached == null ? "no method" : reached.getDeclaringClass().getName() + "." + reached.getName())
                    + (receiver == null ? "" : " on its receiver, a " + receiver.getClass().getName()) + ", but frame "
                    + (i + 1) + " is " + SourceTerms.place(callee.method, callee.bci) + " (" + next.key
                    + "): the frames do not chain");
        }
        if (receiver != null && !Modifier.isStatic(callee.method.getModifiers()) && callee.objectValues[0] != receiver) {
            throw refuse(i, "calls " + site.target + " on a " + receiver.getClass().getName() + ", but frame "
                    + (i + 1) + "'s this is another object (a " + callee.objectValues[0].getClass().getName()
                    + "): the frames do not chain");
        }
    }

    /** The method frame {@code frame}'s call reaches on {@code receiver}; the last answer again for a recursion. */
    private Method reached(SiteCheck site, CoroutineFrame frame, Object receiver) {
        Class<?> receiverClass = receiver == null ? null : receiver.getClass();
        if (site == lastSite && receiverClass == lastReceiverClass) {
            return lastReached;
        }
        Class<?> owner = site.targetClass(frame.method.getDeclaringClass());
        Method reached = owner == null ? null
                : CallTargets.reached(owner, site.targetKey, site.virtual, receiver);
        lastSite = site;
        lastReceiverClass = receiverClass;
        lastReached = reached;
        return reached;
    }

    private SiteCheck lastSite;
    private Class<?> lastReceiverClass;
    private Method lastReached;

    /** Whether {@code reached} is {@code callee}'s method; the last pair found so is not compared again. */
    private boolean isMethodOf(Method reached, CoroutineFrame callee) {
        if (reached == null) {
            return false;
        }
        if (reached == lastMatched && callee.method == lastMatchedCallee) {
            return true;
        }
        if (reached != callee.method && !reached.equals(callee.method)) {
            return false;
        }
        lastMatched = reached;
        lastMatchedCallee = callee.method;
        return true;
    }

    private Method lastMatched;
    private Method lastMatchedCallee;

    /**
     * A call through a lambda or method reference's proxy, which is not woven and holds no
     * state: the next frame must be the proxy's implementation method. The woven engine resumes
     * through a proxy only when the weaver bootstrapped it ({@link WovenLambdas}: a lambda of a
     * woven class whose implementation is woven), calling the implementation's twin directly.
     */
    private void checkThroughProxy(int i, SiteCheck site, Object proxy, CoroutineFrame callee) {
        if (coroutine.engine() == Engine.WOVEN && WovenLambdas.of(proxy.getClass()) == null) {
            throw refuse(i, "is suspended in a call of " + site.target + " through a lambda or method reference ("
                    + proxy.getClass().getName() + ") that the weaver did not bootstrap (made by a class that is not"
                    + " woven, or implemented by a method that is not), which the woven engine cannot resume through:"
                    + " deserialize these frames into a coroutine of the native engine");
        }
        if (!CallTargets.implementedBy(proxy, callee.method)) {
            throw refuse(i, "is suspended in a call of " + site.target + " through a lambda or method reference ("
                    + proxy.getClass().getName() + "), whose implementation is not frame " + (i + 1) + "'s method "
                    + callee.method + ": the frames do not chain");
        }
    }

    /** The innermost frame must be in a suspension operation of this coroutine: yield or yieldTo, or its own ret. */
    private void checkInnermost(int i, SiteCheck site, Object receiver) {
        CoroutineFrame frame = frames[i];
        boolean symmetric = coroutine instanceof Coroutine;
        Method reached = reached(site, frame, receiver);
        Class<?> operations = symmetric ? Coroutine.class : AsymCoroutine.class;
        String suspensions = symmetric ? SYMMETRIC_SUSPENSIONS : ASYMMETRIC_SUSPENSION;
        boolean suspends = reached != null && reached.getDeclaringClass() == operations
                && List.of(suspensions.split(" ")).contains(site.targetKey);
        if (!suspends) {
            throw refuse(i, "is the innermost frame, but is suspended in a call of " + site.target
                    + " rather than in " + operations.getSimpleName() + "." + suspensions.replace(" ", " or ")
                    + " (a frame of the chain is missing?)");
        }
        if (receiver != null && receiver != coroutine) {
            throw refuse(i, "is the innermost frame, but its ret is made on another coroutine (a "
                    + receiver.getClass().getName() + "), not on the one deserialized into");
        }
    }

    /** Refuses frame {@code i}, naming its place and then its bci. */
    private IllegalArgumentException refuse(int i, String why) {
        CoroutineFrame frame = frames[i];
        return refuse(i, frame == null || frame.method == null ? null : "bci " + frame.bci, why);
    }

    /**
     * Refuses frame {@code i}: {@code cannot deserialize ...: frame i of n, Class.method(File.java:line) (detail) why},
     * without the place if the frame has no method, and without {@code (detail)} if {@code detail} is null.
     */
    private IllegalArgumentException refuse(int i, String detail, String why) {
        CoroutineFrame frame = frames[i];
        String place = frame == null || frame.method == null ? ""
                : ", " + SourceTerms.place(frame.method, frame.bci) + (detail == null ? "" : " (" + detail + ")");
        return new IllegalArgumentException("cannot deserialize into " + coroutine + ": frame " + i + " of "
                + frames.length + place + " " + why);
    }

    /** Refuses slot {@code slot} of frame {@code i}: {@code ..., Class.method(File.java:line), local name (bci b, local slot s) why}. */
    private IllegalArgumentException refuseSlot(int i, int slot, String why) {
        CoroutineFrame frame = frames[i];
        return new IllegalArgumentException("cannot deserialize into " + coroutine + ": frame " + i + " of "
                + frames.length + ", " + SourceTerms.place(frame.method, frame.bci) + ", " + slotName(frame, slot)
                + " (" + detail(frame, slot) + ") " + why);
    }

    private static String slotName(CoroutineFrame frame, int slot) {
        return SourceTerms.slot(frame.method, frame.bci, frame.localCount, slot);
    }

    /** The JVM's terms for slot {@code slot} of {@code frame}, for a refusal that does not name it otherwise. */
    private static String jvm(CoroutineFrame frame, int slot) {
        return "bci " + frame.bci + (slot < frame.localCount ? ", local slot " : ", stack slot ") + slot;
    }

    private static String detail(CoroutineFrame frame, int slot) {
        return SourceTerms.slotDetail(frame.method, frame.bci, frame.localCount, slot);
    }
}
