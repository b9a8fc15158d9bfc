package dev.weft.contract;

import dev.weft.Engine;

/** The serialization contract on the woven engine. */
class WovenSerializationTest extends SerializationContract {

    @Override
    Engine engine() {
        return Engine.WOVEN;
    }
}
