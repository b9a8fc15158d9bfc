package dev.weft.contract;

import dev.weft.Engine;

/** The steal-and-call stress on the native engine. */
class NativeStealCallStressTest extends StealCallStressContract {

    @Override
    Engine engine() {
        return Engine.NATIVE;
    }
}
