package dev.weft.bench;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.AffineTransform;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import javax.imageio.ImageIO;

/**
 * A line chart drawn with {@code java.awt} into a PNG, headless, with optional logarithmic axes:
 * enough for the thesis's figures without a plotting dependency. Points with a NaN or (on a
 * log axis) non-positive coordinate are left out.
 */
final class LinePlot {

    record Point(double x, double y) {
    }

    private record Series(String name, List<Point> points, boolean dashed) {
    }

    private static final int WIDTH = 1100;
    private static final int HEIGHT = 600;
    private static final int LEFT = 90;
    private static final int RIGHT = 20;
    private static final int TOP = 50;
    private static final int BOTTOM = 70;
    private static final Color[] PALETTE = {
        new Color(0x1f77b4), new Color(0xd62728), new Color(0x2ca02c), new Color(0xff7f0e),
        new Color(0x9467bd), new Color(0x8c564b), new Color(0xe377c2), new Color(0x17becf),
        new Color(0x7f7f7f), new Color(0xbcbd22), new Color(0x000000), new Color(0x393b79),
    };
    private static final Font LEGEND_FONT = new Font(Font.SANS_SERIF, Font.PLAIN, 12);

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

    void write(Path png) throws IOException {
        BufferedImage image = new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
            g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
            g.setColor(Color.WHITE);
            g.fillRect(0, 0, WIDTH, HEIGHT);
            draw(g);
        } finally {
            g.dispose();
        }
        Files.createDirectories(png.toAbsolutePath().getParent());
        ImageIO.write(image, "png", png.toFile());
    }

    private void draw(Graphics2D g) {
        Axis x = axis(true);
        Axis y = axis(false);
        int legendW = legendWidth(g);
        int plotW = WIDTH - LEFT - RIGHT - legendW - 20;
        int plotH = HEIGHT - TOP - BOTTOM;
        g.setColor(Color.BLACK);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 16));
        centered(g, title, LEFT + plotW / 2, 30);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        for (double t : x.ticks()) {
            int px = LEFT + (int) Math.round(x.fraction(t) * plotW);
            g.setColor(new Color(0xe6e6e6));
            g.drawLine(px, TOP, px, TOP + plotH);
            g.setColor(Color.DARK_GRAY);
            centered(g, label(t, true), px, TOP + plotH + 18);
        }
        for (double t : y.ticks()) {
            int py = TOP + plotH - (int) Math.round(y.fraction(t) * plotH);
            g.setColor(new Color(0xe6e6e6));
            g.drawLine(LEFT, py, LEFT + plotW, py);
            g.setColor(Color.DARK_GRAY);
            String s = label(t, false);
            g.drawString(s, LEFT - 8 - g.getFontMetrics().stringWidth(s), py + 4);
        }
        g.setColor(Color.BLACK);
        g.drawRect(LEFT, TOP, plotW, plotH);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
        centered(g, xLabel, LEFT + plotW / 2, HEIGHT - 25);
        AffineTransform saved = g.getTransform();
        g.rotate(-Math.PI / 2);
        centered(g, yLabel, -(TOP + plotH / 2), 22);
        g.setTransform(saved);
        for (int i = 0; i < series.size(); i++) {
            Series s = series.get(i);
            g.setColor(PALETTE[i % PALETTE.length]);
            g.setStroke(stroke(s));
            int lastX = -1;
            int lastY = -1;
            for (Point p : s.points()) {
                int px = LEFT + (int) Math.round(x.fraction(p.x()) * plotW);
                int py = TOP + plotH - (int) Math.round(y.fraction(p.y()) * plotH);
                if (lastX >= 0) {
                    g.drawLine(lastX, lastY, px, py);
                }
                g.fillOval(px - 4, py - 4, 8, 8);
                lastX = px;
                lastY = py;
            }
        }
        legend(g, LEFT + plotW + 20, legendW);
    }

    private static BasicStroke stroke(Series s) {
        return s.dashed() ? new BasicStroke(2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {7f, 5f}, 0f)
                : new BasicStroke(2f);
    }

    private int legendWidth(Graphics2D g) {
        FontMetrics fm = g.getFontMetrics(LEGEND_FONT);
        return series.stream().mapToInt(s -> fm.stringWidth(s.name())).max().orElse(0) + 50;
    }

    /** The legend, right of the plot so that it never hides a point. */
    private void legend(Graphics2D g, int x0, int w) {
        g.setFont(LEGEND_FONT);
        int y0 = TOP;
        int h = series.size() * 18 + 8;
        g.setColor(Color.GRAY);
        g.setStroke(new BasicStroke(1f));
        g.drawRect(x0, y0, w, h);
        for (int i = 0; i < series.size(); i++) {
            int yy = y0 + 16 + i * 18;
            g.setColor(PALETTE[i % PALETTE.length]);
            g.setStroke(stroke(series.get(i)));
            g.drawLine(x0 + 8, yy - 4, x0 + 36, yy - 4);
            g.setColor(Color.BLACK);
            g.drawString(series.get(i).name(), x0 + 42, yy);
        }
    }

    private static void centered(Graphics2D g, String s, int cx, int baseline) {
        g.drawString(s, cx - g.getFontMetrics().stringWidth(s) / 2, baseline);
    }

    /** A tick label; counts on the x axis are abbreviated ({@code 10k}, {@code 1M}). */
    private static String label(double v, boolean abbreviate) {
        if (abbreviate && v >= 1_000_000 && v % 1_000_000 == 0) {
            return String.format(Locale.ROOT, "%,.0fM", v / 1_000_000);
        }
        if (abbreviate && v >= 10_000 && v % 1_000 == 0) {
            return String.format(Locale.ROOT, "%,.0fk", v / 1_000);
        }
        if (v == Math.rint(v)) {
            return String.format(Locale.ROOT, "%,.0f", v);
        }
        return Format.number(v);
    }

    /** The range of one axis, padded, and where its ticks go. */
    private record Axis(double lo, double hi, boolean log) {
        double fraction(double v) {
            double t = log ? Math.log10(v) : v;
            return (t - lo) / (hi - lo);
        }

        List<Double> ticks() {
            List<Double> ticks = new ArrayList<>();
            if (log) {
                for (int e = (int) Math.floor(lo); e <= Math.ceil(hi); e++) {
                    double v = Math.pow(10, e);
                    if (e >= lo - 1e-9 && e <= hi + 1e-9) {
                        ticks.add(v);
                    }
                    if (hi - lo <= 2.5) { // a short log axis gets 2 and 5 too
                        for (double m : new double[] {2, 5}) {
                            double w = Math.log10(m * v);
                            if (w >= lo && w <= hi) {
                                ticks.add(m * v);
                            }
                        }
                    }
                }
                return ticks;
            }
            double step = niceStep((hi - lo) / 6);
            for (double v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) {
                ticks.add(Math.abs(v) < step * 1e-9 ? 0 : v);
            }
            return ticks;
        }

        private static double niceStep(double raw) {
            double p = Math.pow(10, Math.floor(Math.log10(raw)));
            double m = raw / p;
            return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
        }
    }

    private Axis axis(boolean isX) {
        boolean log = isX ? logX : logY;
        double lo = Double.POSITIVE_INFINITY;
        double hi = Double.NEGATIVE_INFINITY;
        for (Series s : series) {
            for (Point p : s.points()) {
                double v = isX ? p.x() : p.y();
                v = log ? Math.log10(v) : v;
                lo = Math.min(lo, v);
                hi = Math.max(hi, v);
            }
        }
        if (!Double.isFinite(lo)) {
            lo = 0;
            hi = 1;
        }
        if (log) {
            lo = Math.floor(lo * 2) / 2; // to half decades
            hi = Math.ceil(hi * 2) / 2;
            if (hi - lo < 1) {
                hi = lo + 1;
            }
        } else {
            if (!isX) {
                lo = Math.min(0, lo);
            }
            double pad = (hi - lo) * 0.05;
            hi = hi == lo ? lo + 1 : hi + pad;
        }
        return new Axis(lo, hi, log);
    }
}
