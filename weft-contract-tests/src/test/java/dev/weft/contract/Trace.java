package dev.weft.contract;

import java.util.ArrayList;
import java.util.List;

/** An ordered record of events, for asserting the exact interleaving of coroutines. Confined to one thread at a time. */
final class Trace {

    private final List<String> events = new ArrayList<>();

    void add(String event) {
        events.add(event);
    }

    List<String> events() {
        return List.copyOf(events);
    }
}
