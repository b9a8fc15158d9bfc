package dev.weft.sessions;

import dev.weft.Engine;

/** The sessions contract on the embedded store, with nodes on HotSpot's continuations. */
class NativeSqliteSessionStoreTest extends SqliteSessionStoreContract {

    @Override
    Engine engine() {
        return Engine.NATIVE;
    }
}
