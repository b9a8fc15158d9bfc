package dev.weft.contract;

import dev.weft.Engine;

/** The thread-affinity contract on the woven engine. */
class WovenThreadAffinityTest extends ThreadAffinityContract {

    @Override
    Engine engine() {
        return Engine.WOVEN;
    }
}
