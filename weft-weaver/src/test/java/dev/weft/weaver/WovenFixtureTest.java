package dev.weft.weaver;

import dev.weft.AsymCoroutine;
import dev.weft.CoroutineBase;
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
}
