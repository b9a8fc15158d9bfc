package dev.weft.internal.events;

import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;

/** A coroutine's stack was replaced by frames, to continue from them. */
@Name("dev.weft.CoroutineDeserialized")
@Label("Coroutine Deserialized")
@Description("A coroutine's stack was replaced by frames, to continue from them.")
final class CoroutineDeserialized extends CoroutineEvent {
    @Label("Frames")
    @Description("How many frames it was given")
    int frames;
}
