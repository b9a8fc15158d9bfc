package dev.weft.contract;

import dev.weft.Engine;

/** The close contract on the woven engine. */
class WovenCloseTest extends CloseContract {

    @Override
    Engine engine() {
        return Engine.WOVEN;
    }
}
