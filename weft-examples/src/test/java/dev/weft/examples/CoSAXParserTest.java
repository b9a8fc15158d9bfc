package dev.weft.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.xml.sax.SAXParseException;

/** Thesis figures 3.6 and 3.7: the JDK's SAX parser, inverted by an asymmetric coroutine. */
class CoSAXParserTest extends LeftoverCheck {

    /** The start tags of the bundled catalogue.xml, in document order. */
    static final List<String> CATALOGUE_ELEMENTS = List.of(
            "catalogue",
            "section", "item", "name", "price", "item", "name", "price",
            "section", "item", "name", "price", "note", "em");

    /** Figure 3.6 prints what every call returns, so the final null that run returns too. */
    static final List<String> FIGURE_3_6 = withNull(CATALOGUE_ELEMENTS);

    private static List<String> withNull(List<String> elements) {
        List<String> lines = new ArrayList<>(elements);
        lines.add("null");
        return lines;
    }

    @Test
    void figure3_6CallLoopPrintsEveryElementThenTheFinalNull() {
        assertEquals(Output.text(FIGURE_3_6), Output.ofMain(() -> CoSAXParser.main(new String[0])));
    }

    @Test
    void figure3_7ForLoopPrintsTheSameLinesAsFigure3_6() {
        assertEquals(Output.text(FIGURE_3_6), Output.ofMain(() -> CoSAXParserIteration.main(new String[0])));
    }

    @Test
    void eachCallReturnsOneElementWhileTheParserIsSuspendedInItsCallback() {
        CoSAXParser parser = new CoSAXParser();
        assertEquals("catalogue", parser.call(null));
        assertFalse(parser.isFinished());
        assertEquals("section", parser.call(null));
        assertEquals("item", parser.call(null));
        for (int i = 3; i < CATALOGUE_ELEMENTS.size(); i++) {
            assertEquals(CATALOGUE_ELEMENTS.get(i), parser.call(null));
        }
        assertFalse(parser.isFinished(), "still inside the last startElement");
        assertEquals(null, parser.call(null));
        assertTrue(parser.isFinished());
        assertThrows(IllegalStateException.class, () -> parser.call(null));
    }

    @Test
    void aFileNamedOnTheCommandLineIsParsedInstead(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("content.xml");
        Files.writeString(file, "<?xml version=\"1.0\"?>\n<a><b/><c><d>text</d></c><b/></a>\n");
        String[] args = {file.toString()};
        assertEquals(Output.text("a", "b", "c", "d", "b", "null"), Output.ofMain(() -> CoSAXParser.main(args)));
        assertEquals(Output.text("a", "b", "c", "d", "b", "null"), Output.ofMain(() -> CoSAXParserIteration.main(args)));
    }

    @Test
    void aMissingFileFailsTheFirstCall(@TempDir Path dir) {
        CoSAXParser parser = new CoSAXParser(dir.resolve("missing.xml"));
        RuntimeException e = assertThrows(RuntimeException.class, () -> parser.call(null));
        assertTrue(e.getMessage().contains("missing.xml"), e.getMessage());
        assertTrue(parser.isFinished());
    }

    @Test
    void aParseErrorComesOutOfTheCallAfterTheElementsBeforeIt() {
        CoSAXParser parser = new CoSAXParser("broken", stream("<a><b></a>"));
        List<String> printed = new ArrayList<>();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> {
            while (!parser.isFinished()) {
                printed.add(parser.call(null));
            }
        });
        assertEquals(List.of("a", "b"), printed);
        assertInstanceOf(SAXParseException.class, e.getCause());
        assertTrue(parser.isFinished());
    }

    @Test
    void closingAParserSuspendedInsideTheCallbackUnwindsItAndClosesTheDocument() {
        AtomicBoolean streamClosed = new AtomicBoolean();
        CoSAXParser parser = new CoSAXParser(CoSAXParser.CATALOGUE, () -> new FilterInputStream(
                CoSAXParser.class.getResourceAsStream(CoSAXParser.CATALOGUE)) {
            @Override
            public void close() throws IOException {
                streamClosed.set(true);
                super.close();
            }
        });
        Iterator<String> elements = parser.iterator();
        assertEquals("catalogue", elements.next());
        assertEquals("section", elements.next());
        assertFalse(streamClosed.get());

        parser.close();

        assertTrue(parser.isFinished());
        assertTrue(streamClosed.get(), "the parser's try-with-resources closed the stream");
        assertFalse(elements.hasNext());
    }

    private static CoSAXParser.XmlSource stream(String xml) {
        return () -> (InputStream) new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8));
    }
}
