package dev.weft.contract;

import dev.weft.Engine;

/** The ring-steal stress on the native engine. */
class NativeRingStealStressTest extends RingStealStressContract {

    @Override
    Engine engine() {
        return Engine.NATIVE;
    }
}
