package dev.weft.internal.woven;

import dev.weft.internal.engine.woven.WovenSwitches;

import java.lang.invoke.CallSite;
import java.lang.invoke.ConstantCallSite;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.invoke.MutableCallSite;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The bootstrap of every call that a twin makes ({@link Twins}): the weaver turns a twin's
 * {@code invokeX Owner.name(args)} into {@code invokedynamic name(receiver?, args, Fiber)}
 * linked here, and this links it to what it must run:
 * <ul>
 *   <li>a suspension point of the library ({@code Coroutine.yield}, {@code yieldTo},
 *       {@code AsymCoroutine.ret}), or {@code AsymCoroutine.call}: its woven-engine version,
 *       which unwinds (a call, to wait for its callee off the thread's stack);</li>
 *   <li>a method whose twin stands for it: the twin, passing the fiber on;</li>
 *   <li>the interface method of a lambda or method reference of a woven class whose
 *       implementation is woven ({@link WovenLambdas}): the implementation's twin, with the
 *       lambda's captured values;</li>
 *   <li>anything else (a JDK method, a class that is not woven, an override that is not
 *       woven): the method itself, dropping the fiber. Such a call is <em>opaque</em>: the
 *       woven engine cannot unwind through it, and a suspension inside it is refused.</li>
 * </ul>
 * Static and special calls link once, and so do virtual calls of a private method (which javac
 * compiles as {@code invokevirtual} since Java 11: only the named class's own method can run)
 * and calls of an array's methods ({@link #linkArray}).
 * Other virtual and interface calls link per receiver class, through an inline cache of a few
 * classes, then a per-class table.
 *
 * <p>Access: a call is linked only after the caller's own lookup has found the method the call
 * names, as the JVM would resolve and check it (a call the caller may not make fails as it would
 * unwoven); its stand-in is then a direct call of the twin of exactly the method that runs
 * ({@link Twins#exact}), twins being private, made with a lookup of the twin's class
 * ({@link Twins#lookupIn}: the one the class registered, in any module). A static call may
 * initialize the method's class as it links ({@link #linkStatic}). Once linked, a call costs
 * what a direct call of the twin does: the stand-in is the call site's constant target, or one
 * guarded by the receiver's class. A call the linker cannot reach the twin of fails to link,
 * with an {@code IllegalAccessException} that names the class and what it lacks.
 */
public final class TwinLinker {

    /** The opcodes a linked call was compiled as (JVM specification, section 6.5). */
    private static final int INVOKEVIRTUAL = 182;
    private static final int INVOKESPECIAL = 183;
    private static final int INVOKESTATIC = 184;
    private static final int INVOKEINTERFACE = 185;

    /** How many receiver classes a virtual call site tests inline before it uses its table. */
    private static final int INLINE_CLASSES = 3;

    private static final MethodHandle SELECT;
    private static final MethodHandle IS_CLASS;
    private static final MethodHandle IS_NULL;
    /** {@link #copyOf} for each primitive array class, and for {@code Object[]}, which copies every array of references. */
    private static final Map<Class<?>, MethodHandle> ARRAY_CLONES;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            SELECT = lookup.findVirtual(VirtualSite.class, "select", MethodType.methodType(MethodHandle.class, Object.class));
            IS_CLASS = lookup.findStatic(TwinLinker.class, "isClass", MethodType.methodType(boolean.class, Class.class, Object.class));
            IS_NULL = lookup.findStatic(Objects.class, "isNull", MethodType.methodType(boolean.class, Object.class));
            Map<Class<?>, MethodHandle> clones = new HashMap<>();
            for (Class<?> array : List.of(boolean[].class, byte[].class, char[].class, short[].class, int[].class, long[].class,
                    float[].class, double[].class, Object[].class)) {
                clones.put(array, lookup.findStatic(TwinLinker.class, "copyOf", MethodType.methodType(Object.class, array)));
            }
            ARRAY_CLONES = Map.copyOf(clones);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private TwinLinker() {
    }

    /**
     * Links a twin's call of {@code owner.name} made by {@code opcode} ({@code INVOKEVIRTUAL},
     * {@code INVOKESPECIAL}, {@code INVOKESTATIC} or {@code INVOKEINTERFACE}, as in the JVM
     * specification); {@code type} is the call's type with the fiber appended.
     */
    public static CallSite link(MethodHandles.Lookup caller, String name, MethodType type, int opcode, Class<?> owner)
            throws ReflectiveOperationException {
        return switch (opcode) {
            case INVOKESTATIC -> new ConstantCallSite(linkStatic(caller, name, type, owner));
            case INVOKESPECIAL -> new ConstantCallSite(linkSpecial(caller, name, type, owner));
            case INVOKEVIRTUAL, INVOKEINTERFACE -> {
                if (owner.isArray()) {
                    yield new ConstantCallSite(linkArray(caller, name, type, owner));
                }
                Method own = privateMethod(owner, name, withoutFiber(type).dropParameterTypes(0, 1));
                yield own == null ? new VirtualSite(caller, name, type, owner) : new ConstantCallSite(linkPrivate(caller, own, type));
            }
            default -> throw new IllegalArgumentException("not an invoke opcode: " + opcode);
        };
    }

    /**
     * A call of a method of an array: one of {@code Object}'s, which no array overrides and none
     * has a twin of, so it links once, to the method itself. An array's {@code clone()} is a
     * public method of the array's class for the JVM (JLS 10.7), but a lookup on JDK 17 finds
     * {@code Object}'s protected one and narrows the handle's receiver to the caller's class,
     * which then fails on the array with a {@code ClassCastException}; a non-null array is
     * copied by a call of {@code clone()} here instead, as the caller's own call would copy it.
     */
    private static MethodHandle linkArray(MethodHandles.Lookup caller, String name, MethodType type, Class<?> owner)
            throws ReflectiveOperationException {
        MethodType original = withoutFiber(type).dropParameterTypes(0, 1);
        MethodHandle call = caller.findVirtual(owner, name, original);
        if (name.equals("clone") && original.parameterCount() == 0) {
            MethodHandle copy = ARRAY_CLONES.get(owner.getComponentType().isPrimitive() ? owner : Object[].class);
            MethodHandle isNull = IS_NULL.asType(MethodType.methodType(boolean.class, owner));
            call = MethodHandles.guardWithTest(isNull, call.asType(copy.type().changeParameterType(0, owner)),
                    copy.asType(copy.type().changeParameterType(0, owner)));
        }
        return opaque(call, type);
    }

    /**
     * The private instance method {@code name} of type {@code original} that {@code owner}
     * declares, or null: a virtual call of it (javac's call of a private method since nestmates)
     * reaches it whatever the receiver's class, so it links once, as a special call does.
     */
    private static Method privateMethod(Class<?> owner, String name, MethodType original) {
        for (Method m : owner.getDeclaredMethods()) {
            if (m.getName().equals(name) && Modifier.isPrivate(m.getModifiers()) && !Modifier.isStatic(m.getModifiers())
                    && m.getReturnType() == original.returnType()
                    && Arrays.equals(m.getParameterTypes(), original.parameterArray())) {
                return m;
            }
        }
        return null;
    }

    private static MethodHandle linkPrivate(MethodHandles.Lookup caller, Method method, MethodType type)
            throws ReflectiveOperationException {
        MethodHandle call = caller.unreflect(method);
        return standIn(caller, method, call.asType(withoutFiber(type)), type);
    }

    /**
     * A static call. The method's class may not be initialized yet, and so may not have
     * registered its lookup; where Weft cannot look into it either, it is initialized here, at
     * the moment {@code invokestatic} would initialize it (an initializer that throws then fails
     * the link, so that every later run of the call throws that same error, where
     * {@code invokestatic} would throw {@code NoClassDefFoundError}).
     */
    private static MethodHandle linkStatic(MethodHandles.Lookup caller, String name, MethodType type, Class<?> owner)
            throws ReflectiveOperationException {
        MethodType original = withoutFiber(type);
        MethodHandle call = caller.findStatic(owner, name, original);
        Method method = resolved(caller, call, owner, name, original);
        try {
            return standIn(caller, method, call, type);
        } catch (IllegalAccessException closed) {
            Twins.initialize(method.getDeclaringClass());
            return standIn(caller, method, call, type);
        }
    }

    private static MethodHandle linkSpecial(MethodHandles.Lookup caller, String name, MethodType type, Class<?> owner)
            throws ReflectiveOperationException {
        MethodType original = withoutFiber(type).dropParameterTypes(0, 1);
        MethodHandle call = caller.findSpecial(owner, name, original, caller.lookupClass());
        Method method = resolved(caller, call, owner, name, original);
        return standIn(caller, method, call.asType(withoutFiber(type)), type);
    }

    /**
     * The method {@code call}, a direct handle of {@code owner.name} that {@code caller} may use,
     * runs. Revealing it checks access to the class that declares it, which the call does not
     * need: a public method that a public class inherits from a class that is not public (Kotlin's
     * facade classes) is found by looking up the classes the JVM resolved it in instead.
     */
    private static Method resolved(MethodHandles.Lookup caller, MethodHandle call, Class<?> owner, String name,
            MethodType original) throws NoSuchMethodException {
        try {
            return caller.revealDirect(call).reflectAs(Method.class, caller);
        } catch (IllegalArgumentException | SecurityException refused) {
            Method inherited = Twins.resolve(owner, name, original);
            if (inherited == null) {
                throw new NoSuchMethodException(owner.getName() + "." + name + original + ", reached from "
                        + caller.lookupClass().getName());
            }
            return inherited;
        }
    }

    /**
     * What a twin's call of {@code method}, exactly the method the call runs, does, of call type
     * {@code type}: the library's suspension handler, the method's twin, called directly, or
     * {@code call} dropping the fiber.
     */
    private static MethodHandle standIn(MethodHandles.Lookup caller, Method method, MethodHandle call, MethodType type)
            throws IllegalAccessException {
        MethodHandle handler = WovenSwitches.handlerFor(method);
        if (handler != null) {
            return handler.asType(type);
        }
        Method twin = Twins.twinOf(method);
        if (twin == null) {
            return opaque(call, type);
        }
        return Twins.exact(caller, twin).asType(type);
    }

    /**
     * A call of the twin of whatever {@code method}, an overridable instance method, runs on the
     * receiver it is given, as a virtual call of {@code method} by {@code caller} would: by
     * receiver class, as {@link VirtualSite} links, the method's own where the receiver's
     * override is not woven. Of type {@code (Declaring, parameters..., Fiber) R}.
     */
    static MethodHandle virtualTwinCall(MethodHandles.Lookup caller, Method method) {
        MethodType type = Twins.twinType(MethodType.methodType(method.getReturnType(), method.getParameterTypes()))
                .insertParameterTypes(0, method.getDeclaringClass());
        return new VirtualSite(caller, method.getName(), type, method.getDeclaringClass()).dynamicInvoker();
    }

    /** {@code call}, of the call's type without the fiber, taking and ignoring the fiber. */
    private static MethodHandle opaque(MethodHandle call, MethodType type) {
        return MethodHandles.dropArguments(call.asType(withoutFiber(type)), type.parameterCount() - 1, Fiber.class);
    }

    private static MethodType withoutFiber(MethodType type) {
        return type.dropParameterTypes(type.parameterCount() - 1, type.parameterCount());
    }

    // Through ARRAY_CLONES: each an array's own clone(), called from here.
    private static Object copyOf(boolean[] array) {
        return array.clone();
    }

    private static Object copyOf(byte[] array) {
        return array.clone();
    }

    private static Object copyOf(char[] array) {
        return array.clone();
    }

    private static Object copyOf(short[] array) {
        return array.clone();
    }

    private static Object copyOf(int[] array) {
        return array.clone();
    }

    private static Object copyOf(long[] array) {
        return array.clone();
    }

    private static Object copyOf(float[] array) {
        return array.clone();
    }

    private static Object copyOf(double[] array) {
        return array.clone();
    }

    private static Object copyOf(Object[] array) {
        return array.clone();
    }

    @SuppressWarnings("unused") // through IS_CLASS
    private static boolean isClass(Class<?> type, Object receiver) {
        return receiver != null && receiver.getClass() == type;
    }

    /**
     * A virtual or interface call: what it runs depends on the receiver's class. Starts with a
     * target that selects by class and relinks; each new class adds a test in front, up to
     * {@link #INLINE_CLASSES}; past that, the target only selects from the table.
     */
    static final class VirtualSite extends MutableCallSite {

        private final MethodHandles.Lookup caller;
        private final String name;
        private final Class<?> owner;
        private int inlineClasses;

        private final ClassValue<MethodHandle> byClass = new ClassValue<>() {
            @Override
            protected MethodHandle computeValue(Class<?> receiver) {
                try {
                    return forClass(receiver);
                } catch (ReflectiveOperationException e) {
                    throw new IllegalStateException("cannot link the call of " + owner.getName() + "." + name + type()
                            + " on " + receiver.getName() + " from woven code of " + caller.lookupClass().getName(), e);
                }
            }
        };

        VirtualSite(MethodHandles.Lookup caller, String name, MethodType type, Class<?> owner) {
            super(type);
            this.caller = caller;
            this.name = name;
            this.owner = owner;
            MethodHandle select = SELECT.bindTo(this).asType(MethodType.methodType(MethodHandle.class, type.parameterType(0)));
            setTarget(MethodHandles.foldArguments(MethodHandles.exactInvoker(type), select));
        }

        /** The target for {@code receiver}'s class; while the inline cache has room, also adds a test for it. */
        @SuppressWarnings("unused") // through SELECT
        MethodHandle select(Object receiver) {
            if (receiver == null) {
                return nullReceiver();
            }
            Class<?> type = receiver.getClass();
            MethodHandle target = byClass.get(type);
            synchronized (this) {
                if (inlineClasses < INLINE_CLASSES) {
                    inlineClasses++;
                    MethodHandle test = IS_CLASS.bindTo(type).asType(MethodType.methodType(boolean.class, type().parameterType(0)));
                    setTarget(MethodHandles.guardWithTest(MethodHandles.dropArguments(test, 1, type().parameterList().subList(1, type().parameterCount())),
                            target, getTarget()));
                }
            }
            return target;
        }

        /** For a null receiver: the call itself, which throws the JVM's NullPointerException from the caller's frame. */
        private MethodHandle nullReceiver() {
            try {
                return opaque(caller.findVirtual(owner, name, withoutFiber(type()).dropParameterTypes(0, 1)), type());
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("cannot link the call of " + owner.getName() + "." + name + type()
                        + " from woven code of " + caller.lookupClass().getName(), e);
            }
        }

        private MethodHandle forClass(Class<?> receiver) throws ReflectiveOperationException {
            MethodType original = withoutFiber(type()).dropParameterTypes(0, 1);
            WovenLambdas.Lambda lambda = WovenLambdas.of(receiver);
            if (lambda != null && lambda.isCallOf(name, original.parameterArray())) {
                return lambda.invoker().asType(type()); // the lambda's class is left out of the chain
            }
            MethodHandle call = caller.findVirtual(owner, name, original);
            Method method = Twins.implementation(owner, receiver, name, original.parameterArray());
            if (method == null) {
                return opaque(call, type()); // an abstract method: the call throws as the JVM would
            }
            return standIn(caller, method, call, type());
        }
    }
}
