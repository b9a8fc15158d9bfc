package dev.weft.contract;

import dev.weft.Engine;

/** The bridge contract on HotSpot's continuations. */
class NativeBridgeTest extends BridgeContract {

    @Override
    Engine engine() {
        return Engine.NATIVE;
    }
}
