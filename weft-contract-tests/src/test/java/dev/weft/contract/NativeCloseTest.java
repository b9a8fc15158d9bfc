package dev.weft.contract;

import dev.weft.Engine;

/** The close contract on HotSpot's continuations. */
class NativeCloseTest extends CloseContract {

    @Override
    Engine engine() {
        return Engine.NATIVE;
    }
}
