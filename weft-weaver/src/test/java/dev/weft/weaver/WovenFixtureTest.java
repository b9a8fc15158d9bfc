package dev.weft.weaver;

import dev.weft.AsymCoroutine;
import dev.weft.CoroutineBase;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;

/** What the tests of woven fixtures share: a loader that weaves them, and no coroutine left behind on the test thread. */
abstract class WovenFixtureTest {

    final WovenLoader loader = new WovenLoader();

    @AfterEach
    void closeLeftovers() {
        CoroutineBase.closeAll();
    }

    /** New instances of the woven fixture {@code simpleName}. */
    Supplier<AsymCoroutine<Integer, String>> fixture(String simpleName) {
        return () -> loader.newInstance(simpleName);
    }

    /** Runs {@code work} on a new thread, which closes its leftover coroutines when it is done; its result. */
    static <T> T onAnotherThread(Callable<T> work) throws Exception {
        FutureTask<T> task = new FutureTask<>(() -> {
            try {
                return work.call();
            } finally {
                CoroutineBase.closeAll();
            }
        });
        Thread thread = new Thread(task, "restorer");
        thread.start();
        try {
            return task.get();
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        } finally {
            thread.join();
        }
    }
}
