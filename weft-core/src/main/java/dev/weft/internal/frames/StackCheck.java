package dev.weft.internal.frames;

import dev.weft.internal.contract.SiteTable;
import dev.weft.internal.contract.WeavingContract;
import dev.weft.AsymCoroutine;
import dev.weft.Coroutine;
import dev.weft.CoroutineBase;
import dev.weft.internal.woven.SourceTerms;
import dev.weft.internal.woven.WovenMethods;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * Decides whether the woven code of a coroutine can capture its stack: every frame between
 * Weft's suspension point and Weft's entry frames must be a woven method that holds no monitor
 * at its suspension site, a bridge that the weaver passes through ({@link Bridges}: left as
 * compiled, it captures nothing and is called again on restore, by its caller or the entry), or
 * a hidden class's frame (a lambda's proxy, which is stateless and simply called again on
 * restore).
 *
 * <p>The coroutine checks its own stack, from its suspension point, when it is resumed to be
 * captured: a walk of the running thread costs a fraction of a walk of a suspended
 * continuation. A first walk looks at classes only, which suffices when every frame's class can
 * be captured wherever it is suspended; otherwise a second walk tells frames apart by class and
 * woven bytecode index wherever the weaver's site map makes that unambiguous, and by method
 * name (which costs more to resolve than the rest of the walk) only where it does not.
 */
public final class StackCheck {

    /** What a walk of classes only returns when it cannot decide: the full walk must. */
    private static final String UNDECIDED = "";

    private static final String WEFT = Coroutine.class.getPackageName();
    private static final String WEFT_INTERNAL = WEFT + ".internal.";
    private static final Module JAVA_BASE = Object.class.getModule();

    private StackCheck() {
    }

    /**
     * Why the running coroutine's stack cannot be captured, naming the first frame in the way,
     * or null if it can. Called on the coroutine's stack, inside the suspension operation it was
     * resumed in.
     */
    public static String refusal() {
        if (FrameWalks.CLASSES_ONLY != null && FrameWalks.CLASSES_ONLY.walk(frames -> check(frames, false)) == null) {
            return null;
        }
        return FrameWalks.FULL.walk(frames -> check(frames, true));
    }

    /**
     * Why the running coroutine's stack, whose woven body runs as twins on the native engine,
     * cannot be captured: its suspension point was not called by a twin (which would make every
     * frame down to the body a twin, able to save itself). Names the frame in the way: the twin
     * itself where it calls the suspension point holding a monitor, else the frame the innermost
     * twin called (past the call site's own method-handle frames), as {@link #refusal()} names
     * frames. Called on the coroutine's stack, inside the suspension operation it was resumed in.
     */
    public static String twinRefusal() {
        return FrameWalks.FULL.walk(StackCheck::checkTwins);
    }

    private static String checkTwins(Iterator<StackWalker.StackFrame> frames) {
        List<StackWalker.StackFrame> above = new ArrayList<>();
        for (StackWalker.StackFrame frame = skipSuspensionMachinery(frames); frame != null
                && !isEntry(frame.getDeclaringClass()); frame = frames.hasNext() ? frames.next() : null) {
            if (isTwin(frame)) {
                return above.isEmpty()
                        ? refuseTwin(frame, "holds a monitor (synchronized) where it is suspended")
                        : refuseCalledByTwin(above);
            }
            above.add(frame);
        }
        return "it is suspended in no woven frame";
    }

    /**
     * Why the frames above the innermost twin stop it from unwinding: the innermost of them that
     * a capture of frames run as compiled would refuse too, else the frame that the twin called
     * (past the call site's own method handles).
     */
    private static String refuseCalledByTwin(List<StackWalker.StackFrame> above) {
        int called = above.size();
        while (called > 1 && above.get(called - 1).getDeclaringClass().getPackageName().equals("java.lang.invoke")) {
            called--; // the twin's linked call site's own method handles
        }
        StackWalker.StackFrame unwovenCaller = null; // the outermost frame of a run of reflection or method handles
        for (StackWalker.StackFrame frame : above.subList(0, called)) {
            Class<?> type = frame.getDeclaringClass();
            if (isInvocationMachinery(type)) {
                unwovenCaller = frame;
                continue;
            }
            if (unwovenCaller != null) {
                break;
            }
            String refused = type.isHidden() ? null : checkWoven(frame, false);
            if (refused != null) {
                return refused;
            }
        }
        if (unwovenCaller != null) {
            return refuse(unwovenCaller, "is not woven (it calls the frame above it by reflection or a method handle)");
        }
        return refuse(above.get(called - 1), "is not woven code entered through its twin (it was called by code"
                + " that is not woven, by reflection or through a method handle)");
    }

    private static boolean isTwin(StackWalker.StackFrame frame) {
        return frame.getMethodName().endsWith(WeavingContract.TWIN_SUFFIX);
    }

    /** {@link #refuse(StackWalker.StackFrame, String)} of a twin's frame, named as its method, without the fiber. */
    private static String refuseTwin(StackWalker.StackFrame frame, String why) {
        String name = frame.getMethodName();
        name = name.substring(0, name.length() - WeavingContract.TWIN_SUFFIX.length());
        String descriptor = frame.getDescriptor().replace(FIBER_PARAMETER, ")");
        return "its frame " + SourceTerms.place(frame.getClassName(), name, frame.getFileName(), frame.getLineNumber())
                + " (" + name + descriptor + ") " + why;
    }

    /** A twin's last parameter, its fiber, and the end of its parameters, in its descriptor. */
    private static final String FIBER_PARAMETER = "L" + WeavingContract.FIBER_CLASS + ";)";

    /**
     * Checks the frames of a walk; with {@code methods} false, a walk of classes only, which
     * returns null if every frame's class is woven and can be captured wherever its frames are
     * suspended (see {@link WovenMethods#everyFrameCapturable()}), and {@link #UNDECIDED} otherwise.
     */
    private static String check(Iterator<StackWalker.StackFrame> frames, boolean methods) {
        StackWalker.StackFrame frame = skipSuspensionMachinery(frames);
        StackWalker.StackFrame unwovenCaller = null; // reflection or method handles: fine only below the outermost frame
        int woven = 0;
        for (; frame != null && !isEntry(frame.getDeclaringClass()); frame = frames.hasNext() ? frames.next() : null) {
            Class<?> type = frame.getDeclaringClass();
            if (type.isHidden()) {
                continue; // a lambda's proxy: stateless, called again on restore
            }
            if (isInvocationMachinery(type)) {
                unwovenCaller = frame;
                continue;
            }
            if (unwovenCaller != null) {
                return methods ? refuse(unwovenCaller,
                        "is not woven (it calls the frame above it by reflection or a method handle)") : UNDECIDED;
            }
            String refused = methods ? checkWoven(frame, true) : checkClass(frame);
            if (refused != null) {
                return refused;
            }
            woven++;
        }
        return woven == 0 ? "it is suspended in no woven frame" : null;
    }

    private static String checkClass(StackWalker.StackFrame frame) {
        WovenMethods table = WovenMethods.of(frame.getDeclaringClass());
        return table != null && table.everyFrameCapturable() ? null : UNDECIDED;
    }

    /** The first frame below Weft's suspension operation ({@code yield}, {@code yieldTo}, {@code ret}) and its helpers. */
    private static StackWalker.StackFrame skipSuspensionMachinery(Iterator<StackWalker.StackFrame> frames) {
        StackWalker.StackFrame frame = frames.next();
        while (isInternal(frame.getDeclaringClass()) && frames.hasNext()) {
            frame = frames.next();
        }
        while (isSuspensionOperation(frame.getDeclaringClass()) && frames.hasNext()) {
            frame = frames.next();
        }
        return frame;
    }

    /**
     * Why {@code frame} cannot be captured, or null; a frame of a method that runs as compiled
     * where it is suspended (a woven class's method, whose twin alone saves frames) is refused
     * only if {@code asCompiledRefused}: above a twin, the frame that the twin called is the one
     * to name.
     */
    private static String checkWoven(StackWalker.StackFrame frame, boolean asCompiledRefused) {
        Class<?> type = frame.getDeclaringClass();
        WovenMethods table = WovenMethods.of(type);
        if (table == null) {
            return refuse(frame, "is not woven: " + SourceTerms.howToWeave(type));
        }
        SiteTable.Site site = WovenMethods.unsharedSiteAt(type, frame.getByteCodeIndex());
        if (site != null && site.monitors() == 0) {
            return null;
        }
        return checkWovenByName(frame, table, asCompiledRefused);
    }

    private static String checkWovenByName(StackWalker.StackFrame frame, WovenMethods table, boolean asCompiledRefused) {
        Class<?> type = frame.getDeclaringClass();
        int wovenBci = frame.getByteCodeIndex();
        String key = WovenMethods.keyAt(type, frame.getMethodName(), wovenBci);
        if (key == null) {
            key = frame.getMethodName() + frame.getDescriptor();
        }
        WovenMethods.WovenMethod method = table.method(key);
        if (method == null) {
            return refuse(frame, "is not woven (constructors, class initializers and native methods never are)");
        }
        if (method.unsupported() != null) {
            return refuse(frame, "was not woven: " + method.unsupported());
        }
        if (method.bridgeTo() != null) {
            return null; // a bridge passed through: no frame of it is captured, its callee's stands in its place
        }
        SiteTable.Site site = table.siteAt(type, key, wovenBci);
        if (site == null) {
            return !asCompiledRefused ? null : refuse(frame, "runs as compiled where it is suspended: only its twin saves its frame, and the"
                    + " coroutine reached it other than through twins (its body is not woven, or a call on the way"
                    + " is not a twin's)");
        }
        if (site.monitors() > 0) {
            return refuse(frame, site, "holds a monitor (synchronized) where it is suspended");
        }
        return null;
    }

    /**
     * {@code its frame Class.method(File.java:line) (name+descriptor, bci b) why}: the frame as a
     * stack trace element shows it, then as the JVM knows it. Its line and bytecode index are the
     * woven code's, whose lines are the source's; the index is the original one where the frame is
     * at a site of the woven table.
     */
    private static String refuse(StackWalker.StackFrame frame, String why) {
        Class<?> type = frame.getDeclaringClass();
        return refuse(frame, WovenMethods.registered(type) == null ? null
                : WovenMethods.unsharedSiteAt(type, frame.getByteCodeIndex()), why);
    }

    /** {@link #refuse(StackWalker.StackFrame, String)} of a frame at {@code site}, or at a site unknown if null. */
    private static String refuse(StackWalker.StackFrame frame, SiteTable.Site site, String why) {
        Class<?> type = frame.getDeclaringClass();
        return "its frame " + SourceTerms.place(type.getName(), frame.getMethodName(), frame.getFileName(),
                frame.getLineNumber()) + " (" + frame.getMethodName() + frame.getDescriptor()
                + (site != null ? ", bci " + site.bci() : "") + ") " + why;
    }

    /**
     * Weft's own code between a suspension operation and the point where its stack stopped: any
     * class of Weft's but the public suspension operations', so that a new helper needs no listing.
     */
    private static boolean isInternal(Class<?> type) {
        String pkg = type.getPackageName();
        return pkg.equals(WEFT) && !isSuspensionOperation(type) || pkg.startsWith(WEFT_INTERNAL);
    }

    /** The classes of the public suspension operations, which the user's innermost frame calls. */
    private static boolean isSuspensionOperation(Class<?> type) {
        return type == Coroutine.class || type == AsymCoroutine.class;
    }

    /**
     * Weft's entry into the coroutine's code, below its outermost frame (the API classes, or an
     * engine's restore); also the end of its stack.
     */
    private static boolean isEntry(Class<?> type) {
        return type == CoroutineBase.class || type == Coroutine.class || type == AsymCoroutine.class
                || type.getPackageName().startsWith(WEFT_INTERNAL)
                || type.getModule() == JAVA_BASE && type.getPackageName().equals("jdk.internal.vm");
    }

    /**
     * Reflection and method-handle frames: a restored coroutine's entry calls its outermost frame
     * through them, and anywhere else they are unwoven frames.
     */
    private static boolean isInvocationMachinery(Class<?> type) {
        if (type.getModule() != JAVA_BASE) {
            return false;
        }
        String pkg = type.getPackageName();
        return pkg.equals("jdk.internal.reflect") || type == java.lang.reflect.Method.class || pkg.equals("java.lang.invoke");
    }
}
