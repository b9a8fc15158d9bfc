package dev.weft.sessions;

import dev.weft.Engine;

/** The sessions contract on PostgreSQL, with nodes on the woven engine. */
class WovenPostgresSessionStoreTest extends PostgresSessionStoreContract {

    @Override
    Engine engine() {
        return Engine.WOVEN;
    }
}
