package dev.weft.internal.woven;

import java.lang.invoke.CallSite;
import java.lang.invoke.LambdaConversionException;
import java.lang.invoke.LambdaMetafactory;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandleInfo;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The lambdas and method references of woven classes on the woven engine. The weaver points
 * every {@code invokedynamic} of a woven class that {@link LambdaMetafactory} bootstraps at the
 * metafactories here, which make the very same call site by {@code LambdaMetafactory} and, when
 * the lambda's implementation method (the {@code lambda$} method, or the referenced method) is
 * woven, also note how to call its twin for an instance of the class made: with the values the
 * instance captured, the interface method's arguments, and the fiber. The woven engine then runs
 * such a lambda as a body, and {@link TwinLinker} links a twin's call of its interface method to
 * the implementation's twin, so that the lambda's class, which the weaver never sees, is not in
 * the chain of frames at all.
 *
 * <p>A lambda whose class Weft cannot read (captured values that are not its fields in order, a
 * constructor reference, an implementation without twin) is left as {@code LambdaMetafactory}
 * made it: an opaque call on the woven engine, whose suspensions are refused as before.
 *
 * <p>Thread-safe.
 */
public final class WovenLambdas {

    /**
     * A lambda class whose implementation is woven: its interface method's name and erased type,
     * the implementation, and the twin's invoker, {@code (Object lambda, interface method's
     * parameters..., Fiber)} returning what the interface method returns.
     */
    public record Lambda(String name, MethodType interfaceType, Method implementation, MethodHandle invoker) {

        /** Whether a call of {@code name} with {@code parameters} is one of the interface method. */
        public boolean isCallOf(String name, Class<?>[] parameters) {
            return this.name.equals(name) && interfaceType.parameterList().equals(List.of(parameters));
        }
    }

    private static final ClassValue<Lambda[]> LAMBDAS = new ClassValue<>() {
        @Override
        protected Lambda[] computeValue(Class<?> type) {
            return new Lambda[1];
        }
    };

    private WovenLambdas() {
    }

    /** {@link LambdaMetafactory#metafactory}, noting a woven implementation's twin. */
    public static CallSite metafactory(MethodHandles.Lookup caller, String name, MethodType factoryType, MethodType interfaceType,
            MethodHandle implementation, MethodType instantiatedType) throws LambdaConversionException {
        CallSite site = LambdaMetafactory.metafactory(caller, name, factoryType, interfaceType, implementation, instantiatedType);
        note(caller, name, factoryType, interfaceType, implementation, site);
        return site;
    }

    /** {@link LambdaMetafactory#altMetafactory}, noting a woven implementation's twin. */
    public static CallSite altMetafactory(MethodHandles.Lookup caller, String name, MethodType factoryType, Object... arguments)
            throws LambdaConversionException {
        CallSite site = LambdaMetafactory.altMetafactory(caller, name, factoryType, arguments);
        note(caller, name, factoryType, (MethodType) arguments[0], (MethodHandle) arguments[1], site);
        return site;
    }

    /** The lambda class {@code type}, if its implementation is woven; else null. */
    public static Lambda of(Class<?> type) {
        return type.isHidden() ? LAMBDAS.get(type)[0] : null;
    }

    private static void note(MethodHandles.Lookup caller, String name, MethodType factoryType, MethodType interfaceType,
            MethodHandle implementation, CallSite site) {
        try {
            MethodHandleInfo info = caller.revealDirect(implementation);
            if (info.getReferenceKind() == MethodHandleInfo.REF_newInvokeSpecial) {
                return;
            }
            Method method = info.reflectAs(Method.class, caller);
            Method twin = Twins.twinOf(method);
            if (twin == null) {
                return;
            }
            Object[] zeros = factoryType.parameterList().stream().map(Twins::zero).toArray();
            Class<?> type = site.getTarget().invokeWithArguments(zeros).getClass(); // the factory only stores what it is given
            if (!type.isHidden()) {
                return;
            }
            Lambda[] holder = LAMBDAS.get(type);
            synchronized (holder) {
                if (holder[0] == null) {
                    MethodHandle invoker = invoker(caller, type, factoryType, interfaceType, info.getReferenceKind(), method, twin);
                    holder[0] = invoker == null ? null : new Lambda(name, interfaceType, method, invoker);
                }
            }
        } catch (Throwable e) { // left opaque, as the class comment says
            if (e instanceof Error error && !(e instanceof LinkageError)) {
                throw error;
            }
        }
    }

    /**
     * The invoker of {@code twin} for instances of {@code type}: each captured value read from
     * its field, then the interface method's arguments and the fiber. Null if the captured values
     * are not {@code type}'s instance fields in order.
     */
    private static MethodHandle invoker(MethodHandles.Lookup caller, Class<?> type, MethodType factoryType,
            MethodType interfaceType, int kind, Method method, Method twin) throws ReflectiveOperationException {
        List<Field> fields = new ArrayList<>();
        for (Field f : type.getDeclaredFields()) {
            if (!Modifier.isStatic(f.getModifiers())) {
                fields.add(f);
            }
        }
        fields.sort(Comparator.comparing(Field::getName, Comparator.comparingInt(String::length).thenComparing(s -> s)));
        int captured = factoryType.parameterCount();
        if (fields.size() != captured) {
            return null;
        }
        MethodHandle h = twinHandle(caller, kind, method, twin);
        for (int i = 0; i < captured; i++) {
            Field f = fields.get(i);
            if (f.getType() != factoryType.parameterType(i)) {
                return null;
            }
            MethodHandle getter = caller.findGetter(type, f.getName(), f.getType());
            h = MethodHandles.filterArguments(h, i, getter.asType(MethodType.methodType(h.type().parameterType(i), type)));
        }
        MethodType merged = h.type().dropParameterTypes(0, captured).insertParameterTypes(0, type);
        if (captured == 0) {
            h = MethodHandles.dropArguments(h, 0, type);
        } else if (captured > 1) {
            int[] order = new int[h.type().parameterCount()];
            for (int i = 0; i < order.length; i++) {
                order[i] = i < captured ? 0 : i - captured + 1;
            }
            h = MethodHandles.permuteArguments(h, merged, order);
        }
        return h.asType(interfaceType.insertParameterTypes(0, Object.class).appendParameterTypes(Fiber.class));
    }

    /**
     * A call of {@code twin}, of the implementation {@code method}, made as the lambda calls its
     * implementation: exactly, or, for a reference to a method that may be overridden, by the
     * receiver's class ({@link TwinLinker#virtualTwinCall}), so that an override, woven or not,
     * is what runs.
     */
    private static MethodHandle twinHandle(MethodHandles.Lookup caller, int kind, Method method, Method twin)
            throws IllegalAccessException {
        boolean virtual = kind == MethodHandleInfo.REF_invokeVirtual || kind == MethodHandleInfo.REF_invokeInterface;
        if (virtual && isOverridable(method)) {
            return TwinLinker.virtualTwinCall(caller, method);
        }
        return Twins.exact(caller, twin);
    }

    private static boolean isOverridable(Method method) {
        int modifiers = method.getModifiers();
        return !Modifier.isPrivate(modifiers) && !Modifier.isFinal(modifiers) && !Modifier.isStatic(modifiers)
                && !Modifier.isFinal(method.getDeclaringClass().getModifiers());
    }
}
