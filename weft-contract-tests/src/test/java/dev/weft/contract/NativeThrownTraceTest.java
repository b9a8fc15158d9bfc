package dev.weft.contract;

import dev.weft.Engine;

/** Exceptions' stack traces on the native engine. */
class NativeThrownTraceTest extends ThrownTraceContract {

    @Override
    Engine engine() {
        return Engine.NATIVE;
    }

    /** None: the body's catch is in frames that are all on the thread, and the exception never left them. */
    @Override
    long boundariesWhenTheBodyCatches() {
        return 0;
    }

    /**
     * No: its frames run as compiled, and nothing of Weft's runs where they catch; the trace
     * shows the engine's and HotSpot's frames between the body and the resumer.
     */
    @Override
    boolean foldsTheEngineWhereTheCoroutineCatches() {
        return false;
    }
}
