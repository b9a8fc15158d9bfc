package dev.weft.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class ResultsTest {

    private static Results measured() {
        Results r = new Results();
        r.add(1_000, "weft", Outcome.measured(300, "ns/op", 4));
        r.add(1_000, "raw", Outcome.measured(100, "ns/op", 4));
        r.add(10, "weft", Outcome.failed("crashed"));
        r.add(10, "raw", Outcome.measured(50, "ns/op", 4));
        return r;
    }

    @Test
    void parametersKeepTheOrderOfMeasurement() {
        assertEquals(List.of(1_000, 10), measured().parameters());
        assertTrue(measured().has(10));
        assertFalse(measured().has(5));
        assertTrue(new Results().isEmpty());
    }

    @Test
    void aRatioNeedsBothOutcomes() {
        Results r = measured();
        assertEquals(3.0, r.ratio(1_000, "weft", "raw"));
        assertTrue(Double.isNaN(r.ratio(10, "weft", "raw")), "a failed outcome");
        assertTrue(Double.isNaN(r.ratio(1_000, "woven", "raw")), "a variant not measured");
        assertNull(r.get(5, "weft"));
    }

    @Test
    void pointsGiveNaNWhereNothingWasMeasuredSoThatThePlotLeavesThemOut() {
        List<LinePlot.Point> points = measured().points("weft");
        assertEquals(new LinePlot.Point(1_000, 300), points.get(0));
        assertTrue(Double.isNaN(points.get(1).y()));
        assertFalse(new LinePlot("t", "x", "y", true, true).series("weft", points).isEmpty());
    }
}
