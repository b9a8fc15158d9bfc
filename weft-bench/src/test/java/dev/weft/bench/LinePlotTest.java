package dev.weft.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;

/** Draws a sample into target/test-plots/, headless, so that a person can look at it too. */
class LinePlotTest {

    @Test
    void drawsAPngWithLogAxesAndManySeries() throws IOException {
        LinePlot plot = new LinePlot("Sample", "coroutines", "ns", true, true);
        for (int s = 0; s < 10; s++) {
            List<LinePlot.Point> points = new ArrayList<>();
            for (int c = 1; c <= 1_000_000; c *= 10) {
                points.add(new LinePlot.Point(c, 50 + s * 40 + Math.log10(c) * 30));
            }
            plot.series("series " + s, points, s >= 6);
        }
        Path png = Path.of("target", "test-plots", "sample.png");
        plot.write(png);
        BufferedImage image = ImageIO.read(png.toFile());
        assertEquals(1100, image.getWidth());
        assertEquals(600, image.getHeight());
    }

    @Test
    void theTitleIsDrawnAboveThePlot() throws IOException {
        Path png = Path.of("target", "test-plots", "titled.png");
        new LinePlot("A title to read", "x", "y", false, false)
                .series("s", List.of(new LinePlot.Point(1, 1), new LinePlot.Point(2, 3)))
                .write(png);
        BufferedImage image = ImageIO.read(png.toFile());
        int dark = 0;
        for (int y = 10; y < 40; y++) { // the band between the top edge and the plot's frame
            for (int x = 0; x < image.getWidth(); x++) {
                if ((image.getRGB(x, y) & 0xff) < 0x80) {
                    dark++;
                }
            }
        }
        assertTrue(dark > 50, "the title's band has " + dark + " dark pixels");
    }

    @Test
    void pointsThatCannotBeDrawnAreLeftOut() {
        LinePlot plot = new LinePlot("t", "x", "y", true, true)
                .series("nothing drawable", List.of(new LinePlot.Point(0, 1), new LinePlot.Point(10, Double.NaN)));
        assertTrue(plot.isEmpty());
        plot.series("one point", List.of(new LinePlot.Point(10, 5)));
        assertFalse(plot.isEmpty());
    }

    @Test
    void countsOnTheXAxisAreAbbreviated() {
        assertEquals("1M", LinePlot.countLabel(1_000_000));
        assertEquals("50k", LinePlot.countLabel(50_000));
        assertEquals("5,000", LinePlot.countLabel(5_000));
        assertEquals("0.500", LinePlot.valueLabel(0.5));
    }
}
