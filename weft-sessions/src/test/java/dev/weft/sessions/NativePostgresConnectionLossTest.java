package dev.weft.sessions;

import dev.weft.Engine;

/** Connections lost at each point of a step, with nodes on HotSpot's continuations. */
class NativePostgresConnectionLossTest extends PostgresConnectionLossContract {

    @Override
    Engine engine() {
        return Engine.NATIVE;
    }
}
