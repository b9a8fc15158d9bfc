package dev.weft.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class FormatTest {

    @Test
    void numbersKeepThreeSignificantDigits() {
        assertEquals("1,234,568", Format.number(1_234_567.8));
        assertEquals("177", Format.number(176.55));
        assertEquals("56.7", Format.number(56.71));
        assertEquals("9.17", Format.number(9.1723));
        assertEquals("0.123", Format.number(0.12345));
        assertEquals("0", Format.number(0));
        assertEquals("-472", Format.number(-471.9));
    }

    @Test
    void whatWasNotMeasuredIsADash() {
        assertEquals(Format.NONE, Format.number(Double.NaN));
        assertEquals(Format.NONE, Format.ratio(Double.POSITIVE_INFINITY));
        assertEquals(Format.NONE, Format.outcome(null));
    }

    @Test
    void ratiosAndOutcomes() {
        assertEquals("1.78×", Format.ratio(1.7812));
        assertEquals("32.4×", Format.ratio(32.41));
        assertEquals("1.001×", Format.ratio(1.0012), "a goal missed by a hair does not read as met");
        assertEquals("1.00×", Format.ratio(1.0));
        assertEquals("149", Format.outcome(Outcome.measured(148.98, "ns/op", 3)));
        assertEquals("failed: boom", Format.outcome(Outcome.failed("boom")));
        assertEquals(1.5, Outcome.measured(150, "ns", 1).ratioTo(Outcome.measured(100, "ns", 1)));
        assertEquals(Double.NaN, Outcome.measured(150, "ns", 1).ratioTo(Outcome.failed("x")));
    }

    @Test
    void countsAndMebibytes() {
        assertEquals("1,000,000", Format.count(1_000_000));
        assertEquals("1.5", Format.mebibytes(1.5 * 1024 * 1024));
    }
}
