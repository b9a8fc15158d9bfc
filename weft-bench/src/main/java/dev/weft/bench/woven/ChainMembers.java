package dev.weft.bench.woven;

import dev.weft.AsymCoroutine;
import dev.weft.Coroutine;
import dev.weft.Engine;

/**
 * The members of the fiber chain (thesis section 6.3) on the woven engine: the same loops as the
 * benchmark's native members, as named classes, since the woven engine runs woven classes only.
 * The build weaves this package (see the pom).
 */
public final class ChainMembers {

    private ChainMembers() {
    }

    /** The message a symmetric chain passes along. */
    public static final class Message {
        public Integer value;
    }

    /** Increments the message and passes control to the next member with {@code yieldTo}. */
    public static final class Symmetric extends Coroutine {
        private final Message message;
        private final Coroutine next;

        public Symmetric(Message message, Coroutine next) {
            super(Engine.WOVEN);
            this.message = message;
            this.next = next;
        }

        @Override
        protected void run() {
            while (true) {
                message.value = message.value + 1;
                Coroutine.yieldTo(next);
            }
        }
    }

    /** Calls the next member (if any) with the incremented value and passes the answer back with {@code ret}. */
    public static final class Asymmetric extends AsymCoroutine<Integer, Integer> {
        private final AsymCoroutine<Integer, Integer> next;

        public Asymmetric(AsymCoroutine<Integer, Integer> next) {
            super(Engine.WOVEN);
            this.next = next;
        }

        @Override
        protected Integer run(Integer in) {
            Integer v = in;
            while (true) {
                Integer out = next == null ? Integer.valueOf(v + 1) : next.call(v + 1); // boxed once, as in the benchmark's native members
                v = ret(out);
            }
        }
    }
}
