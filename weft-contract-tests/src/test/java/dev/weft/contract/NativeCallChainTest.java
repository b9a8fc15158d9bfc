package dev.weft.contract;

import dev.weft.Engine;

/** The call-chain contract on HotSpot's continuations. */
class NativeCallChainTest extends CallChainContract {

    @Override
    Engine engine() {
        return Engine.NATIVE;
    }
}
