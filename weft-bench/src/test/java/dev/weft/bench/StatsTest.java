package dev.weft.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class StatsTest {

    @Test
    void theMedianOfAnOddCountIsTheMiddleValue() {
        assertEquals(3.0, Stats.median(9, 1, 3));
        assertEquals(3.0, Stats.median(List.of(5.0, 3.0, 1.0, 100.0, 2.0)));
    }

    @Test
    void theMedianOfAnEvenCountIsTheMeanOfTheTwoMiddleValues() {
        assertEquals(2.5, Stats.median(4, 1, 3, 2));
    }

    @Test
    void anOutlierDoesNotMoveTheMedian() {
        assertEquals(10.0, Stats.median(10, 10, 10, 1_000_000, 9));
    }

    @Test
    void theMedianOfNothingIsNaN() {
        assertTrue(Double.isNaN(Stats.median()));
        assertTrue(Double.isNaN(Stats.median(List.of())));
    }

    @Test
    void theInputIsNotReordered() {
        double[] values = {3, 1, 2};
        Stats.median(values);
        assertEquals(3.0, values[0]);
    }
}
