package dev.weft.contract;

import dev.weft.Engine;

/** The deserialize race stress on the native engine. */
class NativeDeserializeRaceStressTest extends DeserializeRaceStressContract {

    @Override
    Engine engine() {
        return Engine.NATIVE;
    }
}
