package dev.weft.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The producer/consumer pair, symmetric with a one-slot buffer and as a generator. */
class ProducerConsumerTest extends LeftoverCheck {

    static final List<String> EXPECTED = List.of(
            "produce bolt",
            "consume bolt",
            "produce nut",
            "consume nut",
            "produce washer",
            "consume washer",
            "producer: no more items",
            "consumer: done");

    @Test
    void symmetricCoroutinesAlternateThroughTheSlot() {
        assertEquals(Output.text(EXPECTED), Output.ofMain(() -> SymmetricProducerConsumer.main(new String[0])));
    }

    @Test
    void theGeneratorPrintsTheSameLines() {
        assertEquals(Output.text(EXPECTED), Output.ofMain(() -> GeneratorProducerConsumer.main(new String[0])));
    }

    @Test
    void withNoItemsBothJustEnd() {
        String expected = Output.text("producer: no more items", "consumer: done");
        assertEquals(expected, Output.of(out -> SymmetricProducerConsumer.demo(List.of(), out)));
        assertEquals(expected, Output.of(out -> GeneratorProducerConsumer.demo(List.of(), out)));
    }

    @Test
    void withOneItem() {
        String expected = Output.text("produce x", "consume x", "producer: no more items", "consumer: done");
        assertEquals(expected, Output.of(out -> SymmetricProducerConsumer.demo(List.of("x"), out)));
        assertEquals(expected, Output.of(out -> GeneratorProducerConsumer.demo(List.of("x"), out)));
    }

    @Test
    void theSlotRefusesAPutWhenFullAndATakeWhenEmpty() {
        Slot<String> slot = new Slot<>();
        org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class, slot::take);
        slot.put("a");
        org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class, () -> slot.put("b"));
        slot.close();
        assertEquals(false, slot.isDrained());
        assertEquals("a", slot.take());
        assertEquals(true, slot.isDrained());
    }
}
