package dev.weft.contract;

import dev.weft.Engine;

/** The asymmetric contract on the woven engine. */
class WovenAsymmetricTest extends AsymmetricContract {

    @Override
    Engine engine() {
        return Engine.WOVEN;
    }
}
