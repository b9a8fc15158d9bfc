package dev.weft.internal.frames;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.Iterator;
import java.util.Set;
import java.util.function.Function;

/**
 * Walks of the current thread's stack for {@link StackCheck}, made as cheap as StackWalker
 * allows. A walk that fits in its first batch makes one call into the VM, and every frame of a
 * batch costs an object whether it is looked at or not: so each walk asks for about as many
 * frames as the last walk of its kind looked at. A walk of classes only (JDK 22's
 * {@code DROP_METHOD_INFO}) spares the VM resolving each frame's method.
 *
 * <p>Any thread. The depth hints are shared, unsynchronized: a race costs speed, never a result.
 */
final class FrameWalks {

    /** The most frames a walk asks the VM for at once (the JDK's own limit). */
    private static final int MAX_BATCH = 256;

    /** Walks with methods and bytecode indexes. */
    static final FrameWalks FULL = new FrameWalks(EnumSet.of(StackWalker.Option.RETAIN_CLASS_REFERENCE,
            StackWalker.Option.SHOW_HIDDEN_FRAMES));

    /** Walks of classes only; null on a JDK without {@code DROP_METHOD_INFO}. */
    static final FrameWalks CLASSES_ONLY = classesOnly();

    private final Set<StackWalker.Option> options;
    private final StackWalker[] byFirstBatch = new StackWalker[MAX_BATCH + 1];
    private int lastDepth = 8;

    private FrameWalks(Set<StackWalker.Option> options) {
        this.options = options;
    }

    private static FrameWalks classesOnly() {
        return Arrays.stream(StackWalker.Option.values())
                .filter(option -> option.name().equals("DROP_METHOD_INFO"))
                .findFirst()
                .map(drop -> new FrameWalks(EnumSet.of(drop, StackWalker.Option.RETAIN_CLASS_REFERENCE,
                        StackWalker.Option.SHOW_HIDDEN_FRAMES)))
                .orElse(null);
    }

    /** What {@code check} makes of the caller's stack, innermost frame first; it may stop early. */
    <T> T walk(Function<Iterator<StackWalker.StackFrame>, T> check) {
        return walker(Math.min(lastDepth + 1, MAX_BATCH)).walk(stream -> {
            CountingIterator frames = new CountingIterator(stream.iterator());
            T result = check.apply(frames);
            lastDepth = frames.count;
            return result;
        });
    }

    private StackWalker walker(int firstBatch) {
        StackWalker walker = byFirstBatch[firstBatch];
        if (walker == null) {
            walker = StackWalker.getInstance(options, firstBatch);
            byFirstBatch[firstBatch] = walker;
        }
        return walker;
    }

    /** Counts the frames a check looks at, for the next walk's first batch. */
    private static final class CountingIterator implements Iterator<StackWalker.StackFrame> {
        private final Iterator<StackWalker.StackFrame> frames;
        int count;

        CountingIterator(Iterator<StackWalker.StackFrame> frames) {
            this.frames = frames;
        }

        @Override
        public boolean hasNext() {
            return frames.hasNext();
        }

        @Override
        public StackWalker.StackFrame next() {
            count++;
            return frames.next();
        }
    }
}
