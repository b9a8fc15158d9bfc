package dev.weft.internal.events;

import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;

/** A coroutine's body returned. */
@Name("dev.weft.CoroutineFinished")
@Label("Coroutine Finished")
@Description("A coroutine's body returned.")
final class CoroutineFinished extends CoroutineEvent {}
