package dev.weft.bench;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import com.esotericsoftware.kryo.util.DefaultInstantiatorStrategy;
import dev.weft.CoroutineFrame;
import java.lang.invoke.MethodType;
import java.lang.reflect.Method;
import java.util.HashMap;
import java.util.Map;
import org.objenesis.strategy.StdInstantiatorStrategy;

/**
 * Kryo serializing a coroutine's {@code CoroutineFrame[]}, set up as Kryo's documentation
 * recommends: every class registered (registration required, Kryo 5's default), references on
 * (a value shared by frames stays shared, as Weft's format keeps it), Kryo's own
 * {@code FieldSerializer} for the frames, objenesis for a class without a no-argument
 * constructor, and a serializer of {@link Method} by class, name and descriptor (it is not
 * serializable). The coroutine itself, in its frames' slots, is written as nothing and read
 * back as the coroutine restored into, as Weft's placeholder is.
 *
 * <p>Unlike Weft's streams, this checks nothing: no code fingerprint, no class filter. It is the
 * speed of plain serialization of the same frames, for comparison. Confined to one thread, as a
 * {@link Kryo} is.
 */
final class KryoFrames {

    private final Kryo kryo = new Kryo();

    KryoFrames(Class<?> coroutineType, Object coroutine) {
        kryo.setRegistrationRequired(true);
        kryo.setReferences(true);
        kryo.setInstantiatorStrategy(new DefaultInstantiatorStrategy(new StdInstantiatorStrategy()));
        kryo.register(CoroutineFrame[].class);
        kryo.register(CoroutineFrame.class);
        kryo.register(long[].class);
        kryo.register(Object[].class);
        kryo.register(Method.class, new MethodSerializer());
        kryo.register(coroutineType, new SelfSerializer(coroutine));
    }

    byte[] write(CoroutineFrame[] frames) {
        Output output = new Output(256, -1);
        kryo.writeObject(output, frames);
        return output.toBytes();
    }

    CoroutineFrame[] read(byte[] bytes) {
        return kryo.readObject(new Input(bytes), CoroutineFrame[].class);
    }

    /** A method by its class's name, its name and its descriptor; resolved methods are kept, as a serializer of Quasar's does. */
    private static final class MethodSerializer extends Serializer<Method> {
        private final Map<Method, String> descriptors = new HashMap<>();
        private final Map<String, Method> methods = new HashMap<>();

        MethodSerializer() {
            setImmutable(true);
        }

        @Override
        public void write(Kryo kryo, Output output, Method method) {
            output.writeString(method.getDeclaringClass().getName());
            output.writeString(method.getName());
            output.writeString(descriptors.computeIfAbsent(method,
                    m -> MethodType.methodType(m.getReturnType(), m.getParameterTypes()).toMethodDescriptorString()));
        }

        @Override
        public Method read(Kryo kryo, Input input, Class<? extends Method> type) {
            String owner = input.readString();
            String name = input.readString();
            String descriptor = input.readString();
            return methods.computeIfAbsent(owner + '.' + name + descriptor, key -> resolve(owner, name, descriptor));
        }

        private static Method resolve(String owner, String name, String descriptor) {
            try {
                Class<?> type = Class.forName(owner, false, KryoFrames.class.getClassLoader());
                return type.getDeclaredMethod(name,
                        MethodType.fromMethodDescriptorString(descriptor, type.getClassLoader()).parameterArray());
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("no method " + owner + "." + name + descriptor, e);
            }
        }
    }

    /** The coroutine in its own frames: written as nothing, read as the coroutine restored into. */
    private static final class SelfSerializer extends Serializer<Object> {
        private final Object coroutine;

        SelfSerializer(Object coroutine) {
            this.coroutine = coroutine;
        }

        @Override
        public void write(Kryo kryo, Output output, Object object) {
            if (object != coroutine) {
                throw new IllegalArgumentException("another coroutine in the frames: " + object);
            }
        }

        @Override
        public Object read(Kryo kryo, Input input, Class<?> type) {
            return coroutine;
        }
    }
}
