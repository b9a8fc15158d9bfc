package dev.weft.contract;

import dev.weft.Engine;

/** The steal contract on HotSpot's continuations. */
class NativeStealTest extends StealContract {

    @Override
    Engine engine() {
        return Engine.NATIVE;
    }
}
