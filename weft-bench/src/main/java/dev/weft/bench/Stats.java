package dev.weft.bench;

import java.util.Arrays;
import java.util.Collection;

/** The one statistic the report quotes. */
final class Stats {

    private Stats() {
    }

    /** The median: the middle value, or the mean of the two middle ones; NaN for no values. */
    static double median(Collection<Double> values) {
        double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return median(sorted);
    }

    static double median(double... values) {
        if (values.length == 0) {
            return Double.NaN;
        }
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int middle = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }
}
