package dev.weft.internal.woven;

import dev.weft.internal.contract.WeavingContract;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;

/**
 * Twin methods: the woven engine's versions of woven methods. For each method it weaves, the
 * weaver adds a twin named {@code name + "$weft"} with the same parameters and a {@link Fiber}
 * last; a twin can unwind and rewind its frame, and its calls go to other twins through
 * {@link TwinLinker}. Code that is not woven never calls a twin (it does not know the name), so
 * a twin's caller is always another twin or the engine: the woven engine unwinds only frames
 * that know how to save themselves.
 *
 * <p>This class answers which method a call reaches, and whether that method has a twin that
 * stands for it: a twin is used only if it is declared by the same class as the method that
 * the call actually runs, so that an override that is not woven is never skipped.
 *
 * <p>Twins are private and synthetic, so that reflection sees a woven class as it was compiled
 * ({@code getMethods()} lists no twin); no twin overrides another, and every call of one is
 * exact ({@link #exact}): whoever calls a twin has chosen the method the call runs already.
 * Handles of twins are made with a lookup of the twin's class ({@link #lookupIn}), the one its
 * static initializer registered above all, and only for calls whose caller was found allowed to
 * call the twin's original, or for the engine's own calls of frames it saved or was given:
 * a twin does what its original does.
 *
 * <p>Thread-safe.
 */
public final class Twins {

    /** The type of every resumer: the frame's receiver (null for a static method) and the fiber; the twin's result, boxed. */
    static final MethodType RESUMER_TYPE = MethodType.methodType(Object.class, Object.class, Fiber.class);

    private Twins() {
    }

    /**
     * An exact call of the twin of {@code method}, which must be woven: the handle with which
     * the engine resumes a frame written from a {@code CoroutineFrame}. Any thread. Weft's own:
     * it reaches twins however private ({@link #lookupIn}), and does not leave this package.
     */
    static MethodHandle exactTwin(Method method) {
        Method twin = twinOf(method);
        if (twin == null) {
            throw new IllegalArgumentException(method + " has no twin: it is not woven");
        }
        try {
            return exact(null, twin);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("cannot reach the twin of " + method + ": " + e.getMessage(), e);
        }
    }

    /**
     * The method whose twin {@code twin}, a handle that woven code of {@code owner} saved with a
     * frame (or one of {@link #exactTwin}), calls.
     *
     * @throws IllegalArgumentException if Weft cannot read the handle (the class registered no
     *         lookup, and its package is not open to Weft)
     */
    public static Method methodOf(Class<?> owner, MethodHandle twin) {
        try {
            MethodHandles.Lookup lookup = lookupIn(owner, null);
            Method m = lookup.revealDirect(twin).reflectAs(Method.class, lookup);
            String name = m.getName().substring(0, m.getName().length() - WeavingContract.TWIN_SUFFIX.length());
            Class<?>[] parameters = Arrays.copyOf(m.getParameterTypes(), m.getParameterCount() - 1);
            return m.getDeclaringClass().getDeclaredMethod(name, parameters);
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalArgumentException("cannot tell the method of a saved frame of " + owner.getName() + ": " + e, e);
        }
    }

    /**
     * A direct call of {@code twin}, without virtual dispatch: its callers have chosen the twin
     * of exactly the method that runs. Twins are private, and a direct call of a private method
     * is all a handle of one can be; a twin that is not (written by hand, as tests do) is called
     * as {@code invokespecial} would.
     *
     * @param caller the lookup of the code that makes the call, or null for the engine's own
     */
    static MethodHandle exact(MethodHandles.Lookup caller, Method twin) throws IllegalAccessException {
        Class<?> owner = twin.getDeclaringClass();
        MethodHandles.Lookup lookup = lookupIn(owner, caller);
        int modifiers = twin.getModifiers();
        return Modifier.isStatic(modifiers) || Modifier.isPrivate(modifiers)
                ? lookup.unreflect(twin)
                : lookup.unreflectSpecial(twin, owner);
    }

    /**
     * A lookup with private access to {@code owner}, whose twins it is to call, in this order:
     * <ol>
     *   <li>the one {@code owner} registered its table with ({@link WovenMethods#lookupOf}), which
     *       every woven class does first thing in its static initializer, so that an initialized
     *       one always has it, in any module;</li>
     *   <li>{@code caller}, if it has full privilege in {@code owner}'s nest;</li>
     *   <li>one Weft makes with {@link MethodHandles#privateLookupIn}, which needs {@code owner}'s
     *       package open to Weft's module (every package on the class path is; in a named module,
     *       {@code opens} to {@code dev.weft}, or to everyone if Weft is on the class path).</li>
     * </ol>
     * Only a class not initialized yet in a package closed to Weft has none of these: a static
     * call's class, which {@link TwinLinker} then initializes ({@link #initialize}) before it
     * asks again, or the class of a method reference's static method, whose lambda
     * {@link WovenLambdas} then leaves as {@code LambdaMetafactory} made it.
     *
     * @throws IllegalAccessException naming the class and why, if none of these gives one
     */
    static MethodHandles.Lookup lookupIn(Class<?> owner, MethodHandles.Lookup caller) throws IllegalAccessException {
        MethodHandles.Lookup own = WovenMethods.lookupOf(owner);
        if (own != null) {
            return own;
        }
        if (caller != null && caller.hasFullPrivilegeAccess() && caller.lookupClass().getNestHost() == owner.getNestHost()) {
            return caller;
        }
        try {
            Twins.class.getModule().addReads(owner.getModule());
            return MethodHandles.privateLookupIn(owner, MethodHandles.lookup());
        } catch (IllegalAccessException closed) {
            throw new IllegalAccessException("cannot reach the twins of " + owner.getName() + ": the class has registered"
                    + " no lookup of its own (it is not initialized yet, or not woven by this version's weaver), and its"
                    + " package is not open to Weft (" + closed.getMessage() + ")");
        }
    }

    /**
     * Initializes {@code owner}, as {@code invokestatic} of one of its methods does, so that it
     * registers its lookup: at a static call's link, the moment the call would initialize it.
     */
    static void initialize(Class<?> owner) {
        if (!owner.isHidden()) {
            try {
                Class.forName(owner.getName(), true, owner.getClassLoader());
            } catch (ClassNotFoundException e) {
                // another class of that name: nothing to initialize that would register this one
            }
        }
    }

    /**
     * {@code twin}, of type {@code (receiver?, parameters..., Fiber) R}, as a resumer: the
     * receiver passed on (a static twin's first parameter gets it if it is a reference, which is
     * then null), every parameter zero or null (a resumed prologue overwrites them all), the
     * result boxed.
     */
    public static MethodHandle resumer(MethodHandle twin) {
        MethodType type = twin.type();
        int count = type.parameterCount();
        MethodHandle h = twin;
        for (int k = count - 2; k >= 1; k--) {
            h = MethodHandles.insertArguments(h, k, zero(type.parameterType(k)));
        }
        if (count == 1 || type.parameterType(0).isPrimitive()) {
            if (count > 1) {
                h = MethodHandles.insertArguments(h, 0, zero(type.parameterType(0)));
            }
            h = MethodHandles.dropArguments(h, 0, Object.class);
        }
        return h.asType(RESUMER_TYPE);
    }

    /** The default value of {@code type}, boxed if primitive. */
    static Object zero(Class<?> type) {
        return type.isPrimitive() ? java.lang.reflect.Array.get(java.lang.reflect.Array.newInstance(type, 1), 0) : null;
    }

    /** The twin's type for a method of type {@code original}: the same, with a {@code Fiber} appended. */
    public static MethodType twinType(MethodType original) {
        return original.appendParameterTypes(Fiber.class);
    }

    /**
     * The method that a virtual call of {@code name} with {@code parameters} runs on a receiver of
     * class {@code receiver}: declared by the receiver's class or its nearest superclass, else a
     * default method of its interfaces (the most specific). Null if there is none.
     */
    public static Method implementation(Class<?> receiver, String name, Class<?>[] parameters) {
        return implementation(null, receiver, name, parameters);
    }

    /**
     * The same for a call whose static owner is {@code owner} (null if unknown): a private
     * method of {@code owner} is called as it is, whatever the receiver's class, and no other
     * private method is ever the one called (private methods are not overridden).
     */
    static Method implementation(Class<?> owner, Class<?> receiver, String name, Class<?>[] parameters) {
        Method own = owner == null ? null : declared(owner, name, parameters);
        if (own != null && Modifier.isPrivate(own.getModifiers())) {
            return own;
        }
        for (Class<?> k = receiver; k != null; k = k.getSuperclass()) {
            Method declared = declared(k, name, parameters);
            if (declared != null && !Modifier.isStatic(declared.getModifiers()) && !Modifier.isPrivate(declared.getModifiers())) {
                return declared;
            }
        }
        return defaultMethod(receiver, name, parameters);
    }

    /**
     * The method a call that names {@code owner.name} of type {@code type} resolves to, as the
     * JVM resolves it (JVMS 5.4.3.3): declared by {@code owner} or a superclass, whatever their
     * access, else a default method of an interface; null if there is none.
     */
    static Method resolve(Class<?> owner, String name, MethodType type) {
        Class<?>[] parameters = type.parameterArray();
        for (Class<?> k = owner; k != null; k = k.getSuperclass()) {
            Method declared = declared(k, name, parameters);
            if (declared != null && declared.getReturnType() == type.returnType()) {
                return declared;
            }
        }
        return defaultMethod(owner, name, parameters);
    }

    private static Method defaultMethod(Class<?> receiver, String name, Class<?>[] parameters) {
        Method best = null;
        for (Class<?> k = receiver; k != null; k = k.getSuperclass()) {
            for (Class<?> i : k.getInterfaces()) {
                Method found = declared(i, name, parameters);
                if (found == null || Modifier.isAbstract(found.getModifiers())) {
                    found = defaultMethod(i, name, parameters);
                }
                if (found != null && !Modifier.isAbstract(found.getModifiers())
                        && (best == null || best.getDeclaringClass().isAssignableFrom(found.getDeclaringClass()))) {
                    best = found;
                }
            }
        }
        return best;
    }

    /** The twin of {@code method}, declared beside it, or null if it has none (it is not woven). */
    public static Method twinOf(Method method) {
        Class<?>[] parameters = Arrays.copyOf(method.getParameterTypes(), method.getParameterCount() + 1);
        parameters[parameters.length - 1] = Fiber.class;
        Method twin = declared(method.getDeclaringClass(), method.getName() + WeavingContract.TWIN_SUFFIX, parameters);
        return twin != null && twin.getReturnType() == method.getReturnType()
                && Modifier.isStatic(twin.getModifiers()) == Modifier.isStatic(method.getModifiers()) ? twin : null;
    }

    private static Method declared(Class<?> type, String name, Class<?>[] parameters) {
        try {
            return type.getDeclaredMethod(name, parameters);
        } catch (NoSuchMethodException e) {
            return null;
        }
    }
}
