package dev.weft.contract;

import dev.weft.Engine;

/** The symmetric contract on HotSpot's continuations. */
class NativeSymmetricTest extends SymmetricContract {

    @Override
    Engine engine() {
        return Engine.NATIVE;
    }
}
