package dev.weft.contract;

import dev.weft.Engine;

/** The deserialize race stress on the woven engine. */
class WovenDeserializeRaceStressTest extends DeserializeRaceStressContract {

    @Override
    Engine engine() {
        return Engine.WOVEN;
    }
}
