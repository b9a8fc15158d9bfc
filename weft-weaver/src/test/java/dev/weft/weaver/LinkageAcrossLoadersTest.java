package dev.weft.weaver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.AsymCoroutine;
import dev.weft.CoroutineBase;
import dev.weft.Engine;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Twins are private: the runtime reaches those of another package, and of another class loader,
 * through the lookup each woven class registers. {@code shapes.other}'s classes, defined by a
 * loader of their own, call {@code shapes}' classes, defined by its parent, which call them back
 * (the base class's code calls the overrides, the interface's default method the abstract method
 * implemented in the child); on the woven engine a coroutine suspends in each and resumes, as on
 * the native engine and as with one loader for all.
 */
class LinkageAcrossLoadersTest {

    private static final String CHILD_PACKAGE = "dev.weft.weaver.fixtures.shapes.other.";
    private static final String FIXTURE = CHILD_PACKAGE + "Overrides";

    @AfterEach
    void closeLeftovers() {
        CoroutineBase.closeAll();
    }

    /** Weaves and defines the classes of one package itself; asks its parent for every other class. */
    private static final class PackageLoader extends ClassLoader {
        private final Weaver weaver = new Weaver();
        private final String prefix;

        PackageLoader(ClassLoader parent, String prefix) {
            super("package " + prefix, parent);
            this.prefix = prefix;
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (!name.startsWith(prefix) || name.indexOf('.', prefix.length()) >= 0) {
                return super.loadClass(name, resolve);
            }
            synchronized (getClassLoadingLock(name)) {
                Class<?> loaded = findLoadedClass(name);
                if (loaded == null) {
                    try {
                        byte[] woven = weaver.weave(WovenLoader.original(name), this);
                        loaded = defineClass(name, woven, 0, woven.length);
                    } catch (WeavingException e) {
                        throw new ClassNotFoundException("cannot weave " + name, e);
                    }
                }
                return loaded;
            }
        }
    }

    @Test
    void callsIntoAndBackFromAParentLoadersPackageSuspendAndResume() throws Exception {
        WovenLoader parent = new WovenLoader();
        PackageLoader child = new PackageLoader(parent, CHILD_PACKAGE);
        Class<?> overrides = child.loadClass(FIXTURE);
        assertSame(child, overrides.getClassLoader());
        Class<?> base = overrides.getClassLoader().loadClass("dev.weft.weaver.fixtures.shapes.Stepping");
        assertSame(parent, base.getClassLoader(), "the base class is the parent's");
        assertNotSame(parent.loadClass(FIXTURE), overrides, "the parent has a copy of its own, unused");

        List<String> oneLoader = play(parent.loadClass(FIXTURE), Engine.NATIVE);
        assertTrue(oneLoader.size() > 10, "it suspends in every shape: " + oneLoader);
        assertEquals(oneLoader, play(overrides, Engine.NATIVE), "the native engine, across loaders");
        assertEquals(oneLoader, play(overrides, Engine.WOVEN), "the woven engine, across loaders");
    }

    /** Everything {@code type}'s coroutine passes out on {@code engine}, called with its call's number, to its end. */
    @SuppressWarnings("unchecked")
    private static List<String> play(Class<?> type, Engine engine) throws ReflectiveOperationException {
        AsymCoroutine<Object, String> co = (AsymCoroutine<Object, String>) type.getConstructor(Engine.class).newInstance(engine);
        List<String> out = new ArrayList<>();
        for (int i = 0; !co.isFinished(); i++) {
            out.add(co.call(i));
        }
        return out;
    }
}
