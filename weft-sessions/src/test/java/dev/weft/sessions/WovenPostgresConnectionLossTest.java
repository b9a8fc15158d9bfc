package dev.weft.sessions;

import dev.weft.Engine;

/** Connections lost at each point of a step, with nodes on the woven engine. */
class WovenPostgresConnectionLossTest extends PostgresConnectionLossContract {

    @Override
    Engine engine() {
        return Engine.WOVEN;
    }
}
