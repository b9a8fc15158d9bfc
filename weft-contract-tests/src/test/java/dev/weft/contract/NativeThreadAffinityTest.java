package dev.weft.contract;

import dev.weft.Engine;

/** The thread-affinity contract on HotSpot's continuations. */
class NativeThreadAffinityTest extends ThreadAffinityContract {

    @Override
    Engine engine() {
        return Engine.NATIVE;
    }
}
