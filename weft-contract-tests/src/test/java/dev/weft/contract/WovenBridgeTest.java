package dev.weft.contract;

import dev.weft.Engine;

/** The bridge contract on the woven engine. */
class WovenBridgeTest extends BridgeContract {

    @Override
    Engine engine() {
        return Engine.WOVEN;
    }
}
