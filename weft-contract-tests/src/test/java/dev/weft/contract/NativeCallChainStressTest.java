package dev.weft.contract;

import dev.weft.Engine;

/** The steal-and-call stress on the native engine. */
class NativeCallChainStressTest extends CallChainStressContract {

    @Override
    Engine engine() {
        return Engine.NATIVE;
    }
}
