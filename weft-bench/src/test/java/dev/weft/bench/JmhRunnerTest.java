package dev.weft.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import org.junit.jupiter.api.Test;
import org.openjdk.jmh.util.ListStatistics;

/** The median the report quotes, as JMH's statistics of the per-iteration scores give it. */
class JmhRunnerTest {

    private static Outcome median(double... scores) {
        return JmhRunner.median(new ListStatistics(scores), "ns/op");
    }

    @Test
    void theMedianOfAnOddCountIsTheMiddleValue() {
        Outcome o = median(9, 1, 3);
        assertEquals(3.0, o.value());
        assertEquals(3, o.samples());
        assertEquals("ns/op", o.unit());
    }

    @Test
    void theMedianOfAnEvenCountIsTheMeanOfTheTwoMiddleValues() {
        assertEquals(2.5, median(4, 1, 3, 2).value());
    }

    @Test
    void anOutlierDoesNotMoveTheMedian() {
        assertEquals(10.0, median(10, 10, 10, 1_000_000, 9).value());
    }

    @Test
    void noIterationsIsAFailure() {
        assertFalse(median().ok());
    }
}
