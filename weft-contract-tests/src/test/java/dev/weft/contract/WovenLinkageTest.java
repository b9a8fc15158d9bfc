package dev.weft.contract;

import dev.weft.Engine;

/** The linkage contract on the woven engine. */
class WovenLinkageTest extends LinkageContract {

    @Override
    Engine engine() {
        return Engine.WOVEN;
    }

    @Override
    String refusalThroughMethodHandles() {
        return "refused: cannot suspend handle [";
    }
}
