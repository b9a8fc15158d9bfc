package dev.weft.contract;

import dev.weft.Engine;

/** The ring-steal stress on the woven engine. */
class WovenRingStealStressTest extends RingStealStressContract {

    @Override
    Engine engine() {
        return Engine.WOVEN;
    }
}
