package dev.weft.internal.frames;

import dev.weft.internal.woven.WovenFrames;

import java.io.Serializable;
import java.lang.invoke.SerializedLambda;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Which method a call actually reaches, as the JVM selects it (JVM specification 5.4.6 and the
 * {@code invoke} instructions of 6.5): for {@code invokestatic} and {@code invokespecial}, the
 * method the named class declares or inherits; for {@code invokevirtual} and
 * {@code invokeinterface}, the override the receiver's class selects, a private method of the
 * named class itself, or the default method of an interface. And, for a lambda or method
 * reference's proxy, the implementation method it calls, where the proxy can tell. Looks at
 * declared methods only: loads no class and initializes none. Any thread.
 */
final class CallTargets {

    /**
     * The methods each class declares, by name and descriptor: looked up on every call that a
     * read coroutine's frames make, so read once per class (a class's methods never change).
     */
    private static final ClassValue<Map<String, Method>> DECLARED = new ClassValue<>() {
        @Override
        protected Map<String, Method> computeValue(Class<?> type) {
            Map<String, Method> byKey = new HashMap<>();
            for (Method m : type.getDeclaredMethods()) {
                byKey.put(m.getName() + WovenFrames.descriptorOf(m), m);
            }
            return Map.copyOf(byKey);
        }
    };

    private CallTargets() {
    }

    /**
     * The method a call of {@code key} (name then descriptor) named in {@code owner} reaches,
     * made on {@code receiver} (null for a static call) by a virtual or interface call
     * ({@code virtual}) or a static or special one; null if none is found. A bridge that the
     * weaver passes through is followed to the method it calls on the same receiver
     * ({@link Bridges}): that method's frame stands where the bridge's would.
     */
    static Method reached(Class<?> owner, String key, boolean virtual, Object receiver) {
        Class<?> receiverClass = receiver == null ? null : receiver.getClass();
        Method reached = virtual && receiver != null ? selected(owner, key, receiverClass) : resolve(owner, key);
        return reached == null ? null : Bridges.passedThrough(reached, receiverClass);
    }

    /**
     * The method a virtual or interface call of {@code key} named in {@code owner} selects on a
     * receiver of class {@code receiverClass}; null if none is found.
     */
    static Method selected(Class<?> owner, String key, Class<?> receiverClass) {
        Method named = declared(owner, key);
        if (named != null && Modifier.isPrivate(named.getModifiers())) {
            return named;
        }
        for (Class<?> k = receiverClass; k != null; k = k.getSuperclass()) {
            Method m = declared(k, key);
            if (m != null && !Modifier.isStatic(m.getModifiers()) && !Modifier.isAbstract(m.getModifiers())
                    && (!Modifier.isPrivate(m.getModifiers()) || k == owner)) {
                return m;
            }
        }
        return defaultMethod(receiverClass, key);
    }

    /** {@code owner}'s own or inherited method {@code key}, superclasses first, then interfaces. */
    static Method resolve(Class<?> owner, String key) {
        for (Class<?> k = owner; k != null; k = k.getSuperclass()) {
            Method m = declared(k, key);
            if (m != null) {
                return m;
            }
        }
        return defaultMethod(owner, key);
    }

    /** The first non-abstract method {@code key} among the interfaces of {@code type}, nearest first. */
    private static Method defaultMethod(Class<?> type, String key) {
        Deque<Class<?>> queue = new ArrayDeque<>();
        Set<Class<?>> seen = new HashSet<>();
        for (Class<?> k = type; k != null; k = k.getSuperclass()) {
            queue.addAll(java.util.List.of(k.getInterfaces()));
        }
        while (!queue.isEmpty()) {
            Class<?> i = queue.poll();
            if (!seen.add(i)) {
                continue;
            }
            Method m = declared(i, key);
            if (m != null && !Modifier.isAbstract(m.getModifiers()) && !Modifier.isStatic(m.getModifiers())) {
                return m;
            }
            queue.addAll(java.util.List.of(i.getInterfaces()));
        }
        return null;
    }

    /** The method {@code key} that {@code type} itself declares, or null. */
    static Method declared(Class<?> type, String key) {
        return DECLARED.get(type).get(key);
    }

    /**
     * Whether {@code method} is the implementation method that {@code proxy}, a lambda or method
     * reference's hidden proxy class, calls: exactly, through its {@link SerializedLambda}, for
     * a serializable one (the only kind a stream can carry); for another, whether the method's
     * class is the proxy's nest host (the class whose code made it), the best the JDK tells
     * without the proxy's bytecode. The objects the proxy captured are not compared with the
     * next frame's: frames copied into another coroutine keep the proxy, which still holds the
     * original, and the implementation's prologue restores its {@code this} from the frame.
     */
    static boolean implementedBy(Object proxy, Method method) {
        SerializedLambda lambda = proxy instanceof Serializable ? serializedForm(proxy) : null;
        if (lambda == null) {
            return method.getDeclaringClass() == proxy.getClass().getNestHost();
        }
        return lambda.getImplClass().equals(method.getDeclaringClass().getName().replace('.', '/'))
                && lambda.getImplMethodName().equals(method.getName())
                && lambda.getImplMethodSignature().equals(WovenFrames.descriptorOf(method));
    }

    /** The serialized form of a serializable lambda's proxy, or null if it cannot be had. */
    private static SerializedLambda serializedForm(Object proxy) {
        try {
            Method writeReplace = proxy.getClass().getDeclaredMethod("writeReplace");
            writeReplace.setAccessible(true);
            return writeReplace.invoke(proxy) instanceof SerializedLambda s ? s : null;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }
}
