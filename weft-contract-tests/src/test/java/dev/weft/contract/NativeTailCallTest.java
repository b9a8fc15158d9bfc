package dev.weft.contract;

import dev.weft.Engine;

/** The tail call contract on HotSpot's continuations. */
class NativeTailCallTest extends TailCallContract {

    @Override
    Engine engine() {
        return Engine.NATIVE;
    }
}
