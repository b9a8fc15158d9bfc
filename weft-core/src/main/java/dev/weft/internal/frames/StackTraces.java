package dev.weft.internal.frames;

import dev.weft.CoroutineFrame;
import dev.weft.internal.contract.WeavingContract;
import dev.weft.internal.woven.SourceTerms;
import dev.weft.internal.woven.WovenMethods;

import java.lang.StackWalker.StackFrame;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * A coroutine's stack as {@link StackTraceElement}s, innermost first, as
 * {@code CoroutineBase.getStackTrace()} gives it on every engine: the coroutine's own frames, from
 * the one that made the call it is suspended in (or, running, the one that asked) out to its
 * body's, each named as its source names it, with its line. The scheduler's and the engines'
 * frames above and below them (Weft's API and internal classes, HotSpot's continuations) are
 * left out, and so are the frames that each engine alone has: bridge methods, which the woven
 * engine never saves, and the twins' names, which stand for the methods they are woven from.
 *
 * <p>Stateless; any thread. Reads only site tables already registered: never initializes a class.
 */
public final class StackTraces {

    private static final StackTraceElement[] NONE = new StackTraceElement[0];
    private static final String CONTINUATIONS = "jdk.internal.vm";
    private static final String WEFT = "dev.weft";
    private static final String WEFT_INTERNAL = "dev.weft.internal.";
    /** The JDK's own loaders' classes: boot, platform and application, whose names elements leave out. */
    private static final String BUILT_IN_LOADERS = "jdk.internal.loader.ClassLoaders$";
    private static final StackWalker LIVE = StackWalker.getInstance(Set.of(StackWalker.Option.RETAIN_CLASS_REFERENCE));

    private StackTraces() {
    }

    /** No frames: the stack trace of a coroutine that is new, finished, or elsewhere. */
    public static StackTraceElement[] none() {
        return NONE;
    }

    /** The stack trace of {@code frames}, outermost first as a capture gives them. */
    public static StackTraceElement[] of(CoroutineFrame[] frames) {
        StackTraceElement[] trace = new StackTraceElement[frames.length];
        for (int f = 0; f < frames.length; f++) {
            trace[frames.length - 1 - f] = element(frames[f].method, frames[f].bci);
        }
        return trace;
    }

    /** A frame of {@code method} suspended at its site {@code bci}, at the line its class's site table records. */
    public static StackTraceElement element(Method method, int bci) {
        Class<?> type = method.getDeclaringClass();
        WovenMethods table = WovenMethods.registered(type);
        return element(type, method.getName(), table == null ? null : table.sourceFile(), SourceTerms.lineOf(method, bci));
    }

    /**
     * The coroutine's frames among {@code walked}, a walk of its stack from the innermost frame:
     * those between the scheduler's frames on top (the suspension or the call that asked) and
     * the engine's below (the body's entry), bridges left out, twins under their methods' names.
     */
    public static StackTraceElement[] coroutineFrames(Stream<StackFrame> walked) {
        List<StackTraceElement> kept = new ArrayList<>();
        boolean inside = false;
        for (StackFrame frame : (Iterable<StackFrame>) walked::iterator) {
            boolean scheduler = isScheduler(frame.getDeclaringClass());
            if (inside && scheduler) {
                break;
            }
            inside |= !scheduler;
            if (inside && !isBridge(frame)) {
                kept.add(element(frame));
            }
        }
        return kept.toArray(NONE);
    }

    /**
     * The frames of the coroutine running innermost on the current thread, as far as they are
     * on its stack: from the caller of Weft's code that asked, out to its body's frame, or to
     * the innermost frame that the woven engine has not rebuilt yet.
     */
    public static StackTraceElement[] live() {
        return LIVE.walk(StackTraces::coroutineFrames);
    }

    /** Whether frames of {@code type} are Weft's own or HotSpot's continuations': never the coroutine's code. */
    static boolean isScheduler(Class<?> type) {
        return isScheduler(type.getPackageName());
    }

    /** Whether frames of classes of the package named {@code p} are Weft's own or HotSpot's continuations'. */
    static boolean isScheduler(String p) {
        return p.equals(WEFT) || p.startsWith(WEFT_INTERNAL) || p.equals(CONTINUATIONS);
    }

    /**
     * {@link #isScheduler(String)} of the package of the class named {@code className}, read
     * without cutting the name: an exception's trace asks it of every element.
     */
    static boolean isSchedulerClass(String className) {
        if (className.startsWith(WEFT_INTERNAL)) {
            return className.indexOf('.', WEFT_INTERNAL.length()) >= 0; // in a package below it
        }
        return inPackage(className, WEFT) || inPackage(className, CONTINUATIONS);
    }

    /** Whether the class named {@code className} is of package {@code p} itself, not one below it. */
    private static boolean inPackage(String className, String p) {
        return className.length() > p.length() + 1 && className.startsWith(p) && className.charAt(p.length()) == '.'
                && className.indexOf('.', p.length() + 1) < 0;
    }

    /** Whether the frame's method is a bridge, or the twin of one (named for it, with the fiber last). */
    private static boolean isBridge(StackFrame frame) {
        String name = frame.getMethodName();
        Class<?>[] parameters = frame.getMethodType().parameterArray();
        if (name.endsWith(WeavingContract.TWIN_SUFFIX) && parameters.length > 0) {
            name = name.substring(0, name.length() - WeavingContract.TWIN_SUFFIX.length());
            parameters = Arrays.copyOf(parameters, parameters.length - 1);
        }
        try {
            return frame.getDeclaringClass().getDeclaredMethod(name, parameters).isBridge();
        } catch (NoSuchMethodException | SecurityException e) {
            return false; // a constructor or an initializer: never a bridge
        }
    }

    private static StackTraceElement element(StackFrame frame) {
        String name = frame.getMethodName();
        if (!name.endsWith(WeavingContract.TWIN_SUFFIX)) {
            return frame.toStackTraceElement();
        }
        String method = name.substring(0, name.length() - WeavingContract.TWIN_SUFFIX.length());
        return element(frame.getDeclaringClass(), method, frame.getFileName(), frame.getLineNumber());
    }

    /**
     * An element for a frame of {@code type}, with its loader and module as the JVM's elements
     * print them: a built-in loader's name left out, and a JDK module's version.
     */
    private static StackTraceElement element(Class<?> type, String method, String file, int line) {
        ClassLoader loader = type.getClassLoader();
        boolean builtIn = loader == null || loader.getClass().getName().startsWith(BUILT_IN_LOADERS);
        Module module = type.getModule();
        boolean jdk = builtIn && module.isNamed() && (module.getName().startsWith("java.") || module.getName().startsWith("jdk."));
        String version = module.isNamed() && !jdk ? module.getDescriptor().rawVersion().orElse(null) : null;
        return new StackTraceElement(builtIn ? null : loader.getName(), module.getName(), version,
                type.getName(), method, file, line);
    }
}
