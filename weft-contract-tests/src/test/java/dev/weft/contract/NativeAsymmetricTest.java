package dev.weft.contract;

import dev.weft.Engine;

/** The asymmetric contract on HotSpot's continuations. */
class NativeAsymmetricTest extends AsymmetricContract {

    @Override
    Engine engine() {
        return Engine.NATIVE;
    }
}
