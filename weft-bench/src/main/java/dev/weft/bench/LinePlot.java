package dev.weft.bench;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;
import java.util.stream.Stream;
import javax.imageio.ImageIO;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.XYStyler;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * A line chart of a report section, with optional logarithmic axes, drawn by XChart into a PNG
 * (headless). Sections describe the chart here and never see XChart. Points with a NaN or (on a
 * log axis) non-positive coordinate are left out, and a series with none left is not drawn.
 */
final class LinePlot {

    record Point(double x, double y) {
    }

    private record Series(String name, List<Point> points, boolean dashed) {
    }

    private static final int WIDTH = 1100;
    private static final int HEIGHT = 600;
    /** Strong colours only (XChart's default theme has pale ones that vanish on white). */
    private static final Color[] PALETTE = {
        new Color(0x1f77b4), new Color(0xd62728), new Color(0x2ca02c), new Color(0xff7f0e),
        new Color(0x9467bd), new Color(0x8c564b), new Color(0xe377c2), new Color(0x17becf),
        new Color(0x7f7f7f), new Color(0xbcbd22), new Color(0x000000), new Color(0x393b79),
    };

    private final String title;
    private final String xLabel;
    private final String yLabel;
    private final boolean logX;
    private final boolean logY;
    private final List<Series> series = new ArrayList<>();

    LinePlot(String title, String xLabel, String yLabel, boolean logX, boolean logY) {
        this.title = title;
        this.xLabel = xLabel;
        this.yLabel = yLabel;
        this.logX = logX;
        this.logY = logY;
    }

    /** Adds a series drawn with a solid line; its drawable points only. */
    LinePlot series(String name, List<Point> points) {
        return series(name, points, false);
    }

    /** Adds a series, drawn dashed if {@code dashed} (the peers, to tell them from the JVM's own). */
    LinePlot series(String name, List<Point> points, boolean dashed) {
        List<Point> kept = points.stream()
                .filter(p -> Double.isFinite(p.x()) && Double.isFinite(p.y()))
                .filter(p -> (!logX || p.x() > 0) && (!logY || p.y() > 0))
                .toList();
        if (!kept.isEmpty()) {
            series.add(new Series(name, kept, dashed));
        }
        return this;
    }

    boolean isEmpty() {
        return series.isEmpty();
    }

    /** Draws the chart into {@code png}, creating its folder if needed. */
    void write(Path png) throws IOException {
        XYChart chart = chart();
        Files.createDirectories(png.toAbsolutePath().getParent());
        ImageIO.write(BitmapEncoder.getBufferedImage(chart), "png", png.toFile());
    }

    /**
     * The XChart chart: white, the legend right of the plot so that it never hides a point, and
     * log axes from decade to decade, since XChart labels a log axis at the decades only.
     */
    private XYChart chart() {
        XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT)
                .title(title).xAxisTitle(xLabel).yAxisTitle(yLabel).build();
        XYStyler styler = chart.getStyler();
        styler.setXAxisLogarithmic(logX)
                .setYAxisLogarithmic(logY)
                .setChartBackgroundColor(Color.WHITE)
                .setLegendPosition(Styler.LegendPosition.OutsideE)
                .setSeriesColors(PALETTE)
                .setMarkerSize(8);
        if (logX) {
            styler.setXAxisMin(decadeBelow(Point::x)).setXAxisMax(decadeAbove(Point::x));
        }
        if (logY) {
            styler.setYAxisMin(decadeBelow(Point::y)).setYAxisMax(decadeAbove(Point::y));
        }
        chart.setCustomXAxisTickLabelsFormatter(LinePlot::countLabel);
        chart.setCustomYAxisTickLabelsFormatter(LinePlot::valueLabel);
        series.forEach(s -> add(chart, s));
        return chart;
    }

    private static void add(XYChart chart, Series s) {
        XYSeries drawn = chart.addSeries(s.name(), s.points().stream().mapToDouble(Point::x).toArray(),
                s.points().stream().mapToDouble(Point::y).toArray());
        drawn.setMarker(SeriesMarkers.CIRCLE);
        drawn.setLineStyle(s.dashed() ? SeriesLines.DASH_DASH : SeriesLines.SOLID);
    }

    private double decadeBelow(ToDoubleFunction<Point> coordinate) {
        return Math.pow(10, Math.floor(Math.log10(points().mapToDouble(coordinate).min().orElse(1))));
    }

    /** The decade above every point, at least one decade above {@link #decadeBelow}. */
    private double decadeAbove(ToDoubleFunction<Point> coordinate) {
        double max = points().mapToDouble(coordinate).max().orElse(10);
        double below = decadeBelow(coordinate);
        return Math.max(below * 10, Math.pow(10, Math.ceil(Math.log10(max))));
    }

    private Stream<Point> points() {
        return series.stream().flatMap(s -> s.points().stream());
    }

    /** An x tick label: counts abbreviated ({@code 10k}, {@code 1M}). */
    static String countLabel(double v) {
        if (v >= 1_000_000 && v % 1_000_000 == 0) {
            return String.format(Locale.ROOT, "%,.0fM", v / 1_000_000);
        }
        if (v >= 10_000 && v % 1_000 == 0) {
            return String.format(Locale.ROOT, "%,.0fk", v / 1_000);
        }
        return valueLabel(v);
    }

    /** A y tick label: whole numbers with separators, others as the report writes numbers. */
    static String valueLabel(double v) {
        return v == Math.rint(v) ? String.format(Locale.ROOT, "%,.0f", v) : Format.number(v);
    }
}
