package dev.weft.examples;

import dev.weft.AsymCoroutine;

import java.io.PrintStream;
import java.util.List;

/**
 * The producer/consumer pair of {@link SymmetricProducerConsumer} with the producer as an
 * {@link AsymCoroutine} generator: it {@code ret}s each item to its caller, so the value passed
 * by {@code ret} is the one-slot buffer, and the consumer is a plain enhanced for loop over it
 * (thesis figure 3.7's idiom). The loop's last value is the one {@code run} returns, here
 * {@code null} for "no more items". It prints the same lines as the symmetric version.
 */
public final class GeneratorProducerConsumer {

    private GeneratorProducerConsumer() {
    }

    public static void main(String[] args) {
        demo(SymmetricProducerConsumer.ITEMS, System.out);
    }

    /** Passes {@code items} from the generator to the loop, which print each step. */
    public static void demo(List<String> items, PrintStream out) {
        AsymCoroutine<Void, String> producer = new AsymCoroutine<>((self, ignored) -> {
            for (String item : items) {
                out.println("produce " + item);
                self.ret(item);
            }
            out.println("producer: no more items");
            return null;
        });
        for (String item : producer) {
            if (item == null) {
                break; // what run returns: the producer has no more items
            }
            out.println("consume " + item);
        }
        out.println("consumer: done");
    }
}
