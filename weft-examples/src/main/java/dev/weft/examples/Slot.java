package dev.weft.examples;

/**
 * A one-slot buffer, for {@link SymmetricProducerConsumer}: it holds at most one item, and a
 * producer closes it when there will be no more. It is not thread-safe and does not block:
 * the coroutines that share it take turns, so a put into a full slot or a take from an empty
 * one is a bug, and throws.
 */
public final class Slot<T> {

    private T item;
    private boolean full;
    private boolean closed;

    public void put(T value) {
        if (full || closed) {
            throw new IllegalStateException(full ? "slot is full" : "slot is closed");
        }
        item = value;
        full = true;
    }

    public T take() {
        if (!full) {
            throw new IllegalStateException("slot is empty");
        }
        T value = item;
        item = null;
        full = false;
        return value;
    }

    /** No more items will be put. */
    public void close() {
        closed = true;
    }

    /** Whether it is closed and its last item has been taken. */
    public boolean isDrained() {
        return closed && !full;
    }
}
