package dev.weft.contract;

import dev.weft.Engine;

/** The steal-and-call stress on the woven engine. */
class WovenCallChainStressTest extends CallChainStressContract {

    @Override
    Engine engine() {
        return Engine.WOVEN;
    }
}
