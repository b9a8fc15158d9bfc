package dev.weft.sessions;

import java.io.IOException;
import java.io.NotSerializableException;
import java.io.ObjectOutputStream;
import java.io.OutputStream;
import java.util.function.Supplier;

/**
 * The check that a point's value ({@link StepContext#suspendingAt}) is plain JDK data: it is
 * serialized to nowhere, and every class whose description the stream writes (the value's, its
 * fields', its elements', their superclasses', array classes', enum classes' and any
 * {@code Class} object's) must be defined by the boot or the platform class loader, that is, be
 * a class of the JDK itself. Dynamic proxies are refused whatever their interfaces. Stateless;
 * any thread.
 */
final class PlainValues {

    private PlainValues() {
    }

    /**
     * Returns if {@code value} (null included) is serializable plain JDK data; otherwise throws
     * {@link IllegalArgumentException} whose message begins with {@code what} and names the class.
     */
    static void check(Object value, Supplier<String> what) {
        if (value == null) {
            return;
        }
        Checking out = null;
        try (Checking checking = new Checking()) {
            out = checking;
            checking.writeObject(value);
        } catch (NotSerializableException e) {
            throw new IllegalArgumentException(what.get() + " holds a " + e.getMessage()
                    + ", which is not serializable");
        } catch (IOException e) {
            if (out != null && out.refused != null) {
                throw new IllegalArgumentException(what.get() + " holds a " + out.refused.getName()
                        + ", which is not a JDK class; a point's values must be plain JDK values (strings, numbers,"
                        + " dates, lists and maps of them), so that a node with other code can read them");
            }
            throw new IllegalArgumentException(what.get() + " cannot be serialized: " + e, e);
        }
    }

    /** Whether {@code type}, or its element type if it is an array, is a class of the JDK. */
    static boolean isJdk(Class<?> type) {
        ClassLoader loader = element(type).getClassLoader();
        return loader == null || loader == ClassLoader.getPlatformClassLoader();
    }

    private static Class<?> element(Class<?> type) {
        Class<?> element = type;
        while (element.isArray()) {
            element = element.getComponentType();
        }
        return element;
    }

    /**
     * A stream to nowhere that stops at the first class description of a class outside the JDK,
     * noting it (an array's element class) in {@link #refused}; the stream may describe further
     * classes on its way out (the exception itself), which do not count.
     */
    private static final class Checking extends ObjectOutputStream {
        Class<?> refused;

        Checking() throws IOException {
            super(OutputStream.nullOutputStream());
        }

        @Override
        protected void annotateClass(Class<?> type) throws IOException {
            if (!isJdk(type)) {
                refuse(element(type));
            }
        }

        @Override
        protected void annotateProxyClass(Class<?> type) throws IOException {
            refuse(type);
        }

        private void refuse(Class<?> type) throws IOException {
            if (refused == null) {
                refused = type;
            }
            throw new IOException("not a JDK class: " + type.getName());
        }
    }
}
