package dev.weft.weaver;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.AsymCoroutine;
import dev.weft.Engine;
import java.lang.ref.WeakReference;
import org.junit.jupiter.api.Test;

/**
 * The engine's tables of saved-frame kinds, and the resumers it makes for them, do not keep the
 * classes of woven code alive: a loader of woven classes whose coroutines ran deep, were resumed
 * through their frames' resumers and then finished or were dropped suspended, is collected.
 */
class WovenClassUnloadingTest {

    private static final Class<?>[] ENGINE_AND_DEPTH = {Engine.class, int.class};
    private static final int DEPTH = 12;

    @Test
    void aLoaderOfWovenClassesIsCollectedOnceItsDeepCoroutinesAreFinishedOrDropped() throws InterruptedException {
        WeakReference<ClassLoader> loader = runDeepCoroutinesInALoaderOfTheirOwn();
        assertTrue(collectUntilCleared(loader), "the loader of the woven fixtures is still reachable");
    }

    /**
     * Runs one coroutine {@link #DEPTH} frames deep to its end (each resume calls its innermost
     * saved frame through that frame's kind's resumer) and leaves another suspended at that
     * depth, resumed a few times; drops both and the loader.
     */
    private static WeakReference<ClassLoader> runDeepCoroutinesInALoaderOfTheirOwn() {
        WovenLoader loader = new WovenLoader();
        AsymCoroutine<Integer, String> finished = deepStack(loader);
        for (int i = 1; !finished.isFinished(); i++) {
            finished.call(i);
        }
        AsymCoroutine<Integer, String> suspended = deepStack(loader);
        for (int i = 1; i <= 3; i++) {
            suspended.call(i);
        }
        assertTrue(!suspended.isFinished() && suspended.serialize().length > 2,
                "a coroutine suspended with several saved frames: " + suspended.serialize().length);
        return new WeakReference<>(loader);
    }

    private static AsymCoroutine<Integer, String> deepStack(WovenLoader loader) {
        return WovenEngineSemanticsTest.create(loader, "DeepStack", ENGINE_AND_DEPTH, Engine.WOVEN, DEPTH);
    }

    private static boolean collectUntilCleared(WeakReference<?> ref) throws InterruptedException {
        for (int i = 0; i < 50 && ref.get() != null; i++) {
            System.gc();
            Thread.sleep(10);
        }
        return ref.get() == null;
    }
}
