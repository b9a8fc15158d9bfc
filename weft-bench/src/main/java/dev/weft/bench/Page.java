package dev.weft.bench;

import java.awt.AWTError;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The markdown being written, with the places its pieces go: plots into the results folder
 * (linked by a path relative to the page), and what the sections need to know to write.
 */
final class Page {

    private final StringBuilder text = new StringBuilder();
    private final Path pageDir;
    private final Path plotDir;
    private final Settings settings;
    private final PeerResults peers;
    private final List<String> problems = new ArrayList<>();

    Page(Path pageDir, Path plotDir, Settings settings, PeerResults peers) {
        this.pageDir = pageDir;
        this.plotDir = plotDir;
        this.settings = settings;
        this.peers = peers;
    }

    Settings settings() {
        return settings;
    }

    PeerResults peers() {
        return peers;
    }

    /** Opens block {@code name}, which a section-only run may replace ({@link PageBlocks}). */
    Page begin(String name) {
        text.append(PageBlocks.begin(name)).append('\n');
        return this;
    }

    /** Closes block {@code name}. */
    Page end(String name) {
        text.append(PageBlocks.end(name)).append("\n\n");
        return this;
    }

    Page heading(int level, String title) {
        text.append('\n').append("#".repeat(level)).append(' ').append(title).append("\n\n");
        return this;
    }

    Page paragraph(String paragraph) {
        text.append(paragraph.strip()).append("\n\n");
        return this;
    }

    Page bullets(List<String> items) {
        items.forEach(i -> text.append("- ").append(i).append('\n'));
        text.append('\n');
        return this;
    }

    Page table(Table table) {
        text.append(table.render()).append('\n');
        return this;
    }

    /** Draws {@code plot} into {@code fileName} in the results folder and links it; a failure is noted instead. */
    Page plot(LinePlot plot, String fileName, String caption) {
        if (plot.isEmpty()) {
            text.append("*(").append(caption).append(": nothing measured to plot)*\n\n");
            return this;
        }
        Path png = plotDir.resolve(fileName);
        try {
            plot.write(png);
            String link = pageDir.toAbsolutePath().normalize().relativize(png.toAbsolutePath().normalize()).toString();
            text.append("![").append(caption).append("](").append(link.replace('\\', '/')).append(")\n\n");
        } catch (IOException | RuntimeException | LinkageError | AWTError e) { // no fonts or no libfreetype: the numbers still stand
            problems.add("plot " + fileName + " not drawn: " + e);
            text.append("*(plot ").append(fileName).append(" could not be drawn: ").append(e).append(")*\n\n");
        }
        return this;
    }

    List<String> problems() {
        return problems;
    }

    String text() {
        return text.toString();
    }
}
