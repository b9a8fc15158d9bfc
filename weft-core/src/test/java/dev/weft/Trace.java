package dev.weft;

import java.util.ArrayList;
import java.util.List;

/** An ordered record of events, for asserting the exact interleaving of coroutines. */
final class Trace {
    private final List<String> events = new ArrayList<>();

    void add(String event) {
        events.add(event);
    }

    List<String> events() {
        return List.copyOf(events);
    }
}
