package dev.weft.sessions;

import dev.weft.Engine;

/** The sessions contract on PostgreSQL, with nodes on HotSpot's continuations. */
class NativePostgresSessionStoreTest extends PostgresSessionStoreContract {

    @Override
    Engine engine() {
        return Engine.NATIVE;
    }
}
