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
 * <p>Thread-safe.
 */
public final class Twins {

    private Twins() {
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

    /**
     * A lookup that can call {@code method}: {@code caller} if it has access, else one with
     * private access to its class (Weft reads the class's module, whose package must be open to
     * Weft: every package of the class path is).
     */
    static MethodHandle unreflect(MethodHandles.Lookup caller, Method method) throws IllegalAccessException {
        try {
            return caller.unreflect(method);
        } catch (IllegalAccessException e) {
            Class<?> owner = method.getDeclaringClass();
            Twins.class.getModule().addReads(owner.getModule());
            return MethodHandles.privateLookupIn(owner, MethodHandles.lookup()).unreflect(method);
        }
    }
}
