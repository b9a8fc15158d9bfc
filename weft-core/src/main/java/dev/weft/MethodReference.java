package dev.weft;

import dev.weft.internal.woven.SourceTerms;
import dev.weft.internal.woven.WovenFrames;
import dev.weft.internal.woven.WovenMethods;

import java.io.InvalidObjectException;
import java.io.Serializable;
import java.lang.reflect.Method;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What {@link CoroutineOutputStream} writes in place of a frame's {@link Method} (an entry of
 * the method table of {@link FrameCodec}), or of a {@code Method} held in a slot (through Java
 * serialization): the method's class, name and descriptor, and the fingerprint of its code
 * when it was captured, so that a frame of a method that changed since is refused when read back.
 *
 * @param className the binary name of the method's class
 * @param name the method's name
 * @param descriptor the method's descriptor
 * @param hash the fingerprint of its original bytecode, as the weaver recorded it
 */
record MethodReference(String className, String name, String descriptor, String hash) implements Serializable {

    /** The reference of each method of a class that was written: immutable, and as long-lived as the class. */
    private static final ClassValue<Map<Method, MethodReference>> WRITTEN = new ClassValue<>() {
        @Override
        protected Map<Method, MethodReference> computeValue(Class<?> type) {
            return new ConcurrentHashMap<>();
        }
    };

    static MethodReference of(Method method) {
        return WRITTEN.get(method.getDeclaringClass()).computeIfAbsent(method, MethodReference::describe);
    }

    private static MethodReference describe(Method method) {
        WovenMethods.WovenMethod woven = WovenMethods.methodOf(method);
        return new MethodReference(method.getDeclaringClass().getName(), method.getName(),
                WovenFrames.descriptorOf(method), woven == null ? null : woven.hash());
    }

    /**
     * The method, checked to exist, be woven and have the code it had when it was written. Its
     * class is loaded without being initialized, and initialized (to read its site table) only
     * once it is known to carry the weaver's marker.
     */
    Method resolve(ClassLoader loader) throws InvalidObjectException {
        checkFingerprintGiven();
        return in(wovenClass(loader));
    }

    /** Refuses a reference without a fingerprint: its code could not be checked. */
    void checkFingerprintGiven() throws InvalidObjectException {
        if (hash == null) {
            throw invalid("the stream gives no fingerprint of its code, so that it cannot be checked", null);
        }
    }

    /** The class named, loaded by {@code loader} without being initialized, and checked to carry the weaver's marker. */
    Class<?> wovenClass(ClassLoader loader) throws InvalidObjectException {
        Class<?> type;
        try {
            type = Class.forName(className, false, loader);
        } catch (ClassNotFoundException e) {
            throw invalid("its class does not exist here", e);
        }
        if (!WovenMethods.isMarked(type)) {
            throw invalid("its class is not woven (it is neither initialized nor looked into further): "
                    + SourceTerms.howToWeave(type), null);
        }
        return type;
    }

    /** The method in {@code type}, a {@linkplain #wovenClass woven class} of this name, checked to have the code it had. */
    Method in(Class<?> type) throws InvalidObjectException {
        return in(type, false);
    }

    /** Whether the method's code in {@code type}, where {@link #in} found it woven, is not the code it had. */
    boolean changedIn(Class<?> type) {
        WovenMethods table = WovenMethods.of(type);
        WovenMethods.WovenMethod woven = table == null ? null : table.method(name + descriptor);
        return woven != null && !hash.equals(woven.hash());
    }

    /**
     * The method in {@code type}, a {@linkplain #wovenClass woven class} of this name, checked to
     * have the code it had unless {@code codeMayChange}.
     */
    Method in(Class<?> type, boolean codeMayChange) throws InvalidObjectException {
        Method method;
        try {
            method = WovenFrames.method(type, name + descriptor);
        } catch (IllegalStateException e) {
            throw invalid("the method no longer exists", e);
        }
        WovenMethods table = WovenMethods.of(type);
        WovenMethods.WovenMethod woven = table == null ? null : table.method(name + descriptor);
        if (woven == null) {
            throw invalid("the method is not woven here", null);
        }
        if (!codeMayChange && !hash.equals(woven.hash())) {
            throw invalid("its code changed since the coroutine was written (fingerprint " + hash + ", now "
                    + woven.hash() + ")", null);
        }
        return method;
    }

    private InvalidObjectException invalid(String why, Exception cause) {
        InvalidObjectException e = new InvalidObjectException("cannot restore a frame of " + className + "." + name
                + descriptor + ": " + why);
        if (cause != null) {
            e.initCause(cause);
        }
        return e;
    }
}
