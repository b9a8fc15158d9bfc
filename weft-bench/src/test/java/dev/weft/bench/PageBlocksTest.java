package dev.weft.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The page's blocks, which a section-only run replaces. */
class PageBlocksTest {

    private static final String PAGE = "# Page\n\n" + PageBlocks.begin("a") + "\n\n## A\n\nold a\n\n" + PageBlocks.end("a")
            + "\n\n" + PageBlocks.begin("b") + "\n\n## B\n\nb\n\n" + PageBlocks.end("b") + "\n\nfooter\n";

    @Test
    void aBlockIsReplacedAndTheRestOfThePageKept() {
        String page = PageBlocks.replace(PAGE, "a", "\n## A\n\nnew a\n\n");
        assertEquals(PAGE.replace("old a", "new a"), page);
        assertEquals(Optional.of("\n## B\n\nb\n\n"), PageBlocks.content(page, "b"));
    }

    @Test
    void aPageWithoutTheBlockIsRefused() {
        assertEquals(Optional.empty(), PageBlocks.content(PAGE, "c"));
        assertThrows(IllegalArgumentException.class, () -> PageBlocks.replace(PAGE, "c", "x"));
    }

    @Test
    void aNoteGoesUnderTheSectionsHeading() {
        assertEquals("\n## A\n\n*note*\n\nold a\n\n", PageBlocks.noted("\n## A\n\nold a\n\n", "*note*"));
    }

    @Test
    void aSectionsNewRunReplacesItsOldLineAndKeepsTheOthers() {
        String runs = PageBlocks.withRun("", "sessions", "9. Sessions", "first");
        runs = PageBlocks.withRun(runs, "memory", "3. Memory", "once");
        runs = PageBlocks.withRun(runs, "sessions", "9. Sessions", "again");
        assertTrue(runs.endsWith("\n\n- 3. Memory (`memory`): once.\n- 9. Sessions (`sessions`): again.\n\n"), runs);
    }
}
