package dev.weft.contract;

import dev.weft.Engine;

/** The tail call contract on the woven engine. */
class WovenTailCallTest extends TailCallContract {

    @Override
    Engine engine() {
        return Engine.WOVEN;
    }
}
