package dev.weft.examples;

import dev.weft.Coroutine;

import java.io.PrintStream;
import java.util.List;

/**
 * Producer and consumer as two symmetric coroutines that hand each other control with
 * {@link Coroutine#yieldTo} and pass the items through a one-slot {@link Slot}: the producer
 * puts an item and yields to the consumer, which takes it and yields back.
 *
 * <p>How it ends shows the ring: the consumer is created after the producer, so it sits right
 * after the main program with the producer after it. When the consumer finishes, control passes
 * to the next coroutine in the ring, the producer, which finishes in turn and passes control on
 * to the main program. {@link GeneratorProducerConsumer} prints the same lines.
 */
public final class SymmetricProducerConsumer {

    /** The items the {@code main} method produces. */
    public static final List<String> ITEMS = List.of("bolt", "nut", "washer");

    private SymmetricProducerConsumer() {
    }

    public static void main(String[] args) {
        demo(ITEMS, System.out);
    }

    /** Passes {@code items} from the producer to the consumer, which print each step. */
    public static void demo(List<String> items, PrintStream out) {
        Slot<String> slot = new Slot<>();
        Producer producer = new Producer(items, slot, out);
        Consumer consumer = new Consumer(slot, out);
        producer.consumer = consumer;
        consumer.producer = producer;
        Coroutine.yieldTo(producer);
        if (!producer.isFinished() || !consumer.isFinished()) {
            throw new IllegalStateException("back in main before the end: " + producer + ", " + consumer);
        }
    }

    private static final class Producer extends Coroutine {
        private final List<String> items;
        private final Slot<String> slot;
        private final PrintStream out;
        Coroutine consumer;

        Producer(List<String> items, Slot<String> slot, PrintStream out) {
            this.items = items;
            this.slot = slot;
            this.out = out;
        }

        @Override
        protected void run() {
            for (String item : items) {
                out.println("produce " + item);
                slot.put(item);
                Coroutine.yieldTo(consumer);
            }
            out.println("producer: no more items");
            slot.close();
            Coroutine.yieldTo(consumer);
        }
    }

    private static final class Consumer extends Coroutine {
        private final Slot<String> slot;
        private final PrintStream out;
        Coroutine producer;

        Consumer(Slot<String> slot, PrintStream out) {
            this.slot = slot;
            this.out = out;
        }

        @Override
        protected void run() {
            while (!slot.isDrained()) {
                out.println("consume " + slot.take());
                Coroutine.yieldTo(producer);
            }
            out.println("consumer: done");
        }
    }
}
