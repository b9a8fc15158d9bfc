package dev.weft.weaver;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.function.UnaryOperator;

/**
 * Loads the classes of {@code dev.weft.weaver.fixtures} woven, straight from the test class
 * path, and every other class from its parent: a stand-in for the agent and the build plugin.
 */
final class WovenLoader extends ClassLoader {

    private static final String FIXTURES = "dev.weft.weaver.fixtures.";

    private final Weaver weaver = new Weaver();
    private final UnaryOperator<byte[]> edit;

    WovenLoader() {
        this(UnaryOperator.identity());
    }

    /** A loader that applies {@code edit} to each fixture's class file before weaving it: another version of the code. */
    WovenLoader(UnaryOperator<byte[]> edit) {
        super("woven", WovenLoader.class.getClassLoader());
        this.edit = edit;
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        if (!name.startsWith(FIXTURES)) {
            return super.loadClass(name, resolve);
        }
        synchronized (getClassLoadingLock(name)) {
            Class<?> loaded = findLoadedClass(name);
            if (loaded == null) {
                byte[] woven = weave(name, edit.apply(original(name)));
                loaded = defineClass(name, woven, 0, woven.length);
            }
            return loaded;
        }
    }

    static byte[] original(String name) {
        try (InputStream in = WovenLoader.class.getClassLoader().getResourceAsStream(name.replace('.', '/') + ".class")) {
            if (in == null) {
                throw new IllegalArgumentException("no class file for " + name);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private byte[] weave(String name, byte[] original) throws ClassNotFoundException {
        try {
            return weaver.weave(original);
        } catch (WeavingException e) {
            throw new ClassNotFoundException("cannot weave " + name, e);
        }
    }

    /** A new instance of the fixture class {@code simpleName}, woven. */
    @SuppressWarnings("unchecked")
    <T> T newInstance(String simpleName) {
        try {
            return (T) loadClass(FIXTURES + simpleName).getDeclaredConstructor().newInstance();
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }
}
