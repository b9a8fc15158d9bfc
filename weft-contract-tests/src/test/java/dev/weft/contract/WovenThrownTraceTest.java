package dev.weft.contract;

import dev.weft.Engine;

/** Exceptions' stack traces on the woven engine. */
class WovenThrownTraceTest extends ThrownTraceContract {

    @Override
    Engine engine() {
        return Engine.WOVEN;
    }

    /** One: the exception left {@code middle}, rebuilt, into {@code outer}, still saved. */
    @Override
    long boundariesWhenTheBodyCatches() {
        return 1;
    }

    /** The twin that catches completes the trace. */
    @Override
    boolean foldsTheEngineWhereTheCoroutineCatches() {
        return true;
    }
}
