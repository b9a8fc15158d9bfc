package dev.weft.contract;

import dev.weft.Engine;

/** The serialization contract on HotSpot's continuations. */
class NativeSerializationTest extends SerializationContract {

    @Override
    Engine engine() {
        return Engine.NATIVE;
    }
}
