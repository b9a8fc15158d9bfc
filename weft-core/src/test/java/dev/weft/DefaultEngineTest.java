package dev.weft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The default engine: native unless the system property or {@link Engine#setDefault} says otherwise. */
class DefaultEngineTest {

    @AfterEach
    void restore() {
        Engine.setDefault(Engine.NATIVE);
        CoroutineBase.closeAll();
    }

    @Test
    void theDefaultIsNativeAndCoroutinesCreatedWithoutAnEngineRunOnIt() {
        assertSame(Engine.NATIVE, Engine.defaultEngine());
        assertSame(Engine.NATIVE, new Coroutine().engine());
        assertSame(Engine.NATIVE, new AsymCoroutine<Integer, Integer>((co, x) -> x).engine());
    }

    @Test
    void setDefaultChangesTheEngineOfCoroutinesCreatedAfterwardsOnly() {
        Coroutine before = new Coroutine();
        Engine.setDefault(Engine.WOVEN);
        assertSame(Engine.WOVEN, Engine.defaultEngine());
        assertSame(Engine.WOVEN, new Coroutine().engine(), "a coroutine with nothing to run needs no weaving");
        assertSame(Engine.NATIVE, before.engine());
        assertSame(Engine.NATIVE, new Coroutine(Engine.NATIVE).engine(), "a constructor's engine wins");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new AsymCoroutine<Integer, Integer>((co, x) -> x), "a lambda of a class that is not woven");
        assertTrue(e.getMessage().contains("woven engine"), e.getMessage());
        assertThrows(NullPointerException.class, () -> Engine.setDefault(null));
        assertSame(Engine.WOVEN, Engine.defaultEngine());
    }

    @Test
    void thePropertyNamesAnEngineInAnyCaseAndAnythingElseIsRefused() {
        assertSame(Engine.NATIVE, Engine.parse(null));
        assertSame(Engine.WOVEN, Engine.parse("woven"));
        assertSame(Engine.WOVEN, Engine.parse(" WOVEN "));
        assertSame(Engine.NATIVE, Engine.parse("Native"));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> Engine.parse("hotspot"));
        assertEquals("the system property weft.engine is 'hotspot', which names no engine: use native or woven", e.getMessage());
    }
}
