package dev.weft.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a section measured: for each parameter (a count, a length, a depth), the outcome of each
 * variant (a benchmark method), both in the order they were measured. A missing outcome is null.
 */
final class Results {

    private final Map<Integer, Map<String, Outcome>> byParameter = new LinkedHashMap<>();

    void add(int parameter, String variant, Outcome outcome) {
        byParameter.computeIfAbsent(parameter, p -> new LinkedHashMap<>()).put(variant, outcome);
    }

    /** The outcome of {@code variant} at {@code parameter}, or null if it was not measured. */
    Outcome get(int parameter, String variant) {
        Map<String, Outcome> row = byParameter.get(parameter);
        return row == null ? null : row.get(variant);
    }

    /** Whether {@code variant} was measured at {@code parameter} without failing. */
    boolean isMeasured(int parameter, String variant) {
        Outcome o = get(parameter, variant);
        return o != null && o.ok();
    }

    boolean has(int parameter) {
        return byParameter.containsKey(parameter);
    }

    /** The parameters, in the order they were measured. */
    List<Integer> parameters() {
        return List.copyOf(byParameter.keySet());
    }

    boolean isEmpty() {
        return byParameter.isEmpty();
    }

    /** {@code variant}'s value at {@code parameter} over {@code baseline}'s, or NaN unless both were measured. */
    double ratio(int parameter, String variant, String baseline) {
        Outcome o = get(parameter, variant);
        return o == null ? Double.NaN : o.ratioTo(get(parameter, baseline));
    }

    /** {@code variant} against the parameter, for a plot; what failed is left out by the plot. */
    List<LinePlot.Point> points(String variant) {
        List<LinePlot.Point> points = new ArrayList<>();
        byParameter.forEach((parameter, row) -> {
            Outcome o = row.get(variant);
            points.add(new LinePlot.Point(parameter, o == null ? Double.NaN : o.value()));
        });
        return points;
    }
}
