package dev.weft.contract;

import dev.weft.Engine;

/** Exceptions' stack traces on the native engine. */
class NativeThrownTraceTest extends ThrownTraceContract {

    @Override
    Engine engine() {
        return Engine.NATIVE;
    }

    /**
     * One: a woven body runs as twins on the continuation, and the twin that catches completes
     * the trace, its boundary in place of the engine's and HotSpot's frames.
     */
    @Override
    long boundariesWhenTheBodyCatches() {
        return 1;
    }

    /** The twin that catches completes the trace, as on the woven engine. */
    @Override
    boolean foldsTheEngineWhereTheCoroutineCatches() {
        return true;
    }
}
