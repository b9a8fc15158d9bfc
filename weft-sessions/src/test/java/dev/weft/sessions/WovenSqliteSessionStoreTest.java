package dev.weft.sessions;

import dev.weft.Engine;

/** The sessions contract on the embedded store, with nodes on the woven engine. */
class WovenSqliteSessionStoreTest extends SqliteSessionStoreContract {

    @Override
    Engine engine() {
        return Engine.WOVEN;
    }
}
