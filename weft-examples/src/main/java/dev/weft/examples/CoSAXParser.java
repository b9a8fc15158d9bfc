package dev.weft.examples;

import dev.weft.AsymCoroutine;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.xml.parsers.ParserConfigurationException;
import javax.xml.parsers.SAXParser;
import javax.xml.parsers.SAXParserFactory;
import org.xml.sax.Attributes;
import org.xml.sax.SAXException;
import org.xml.sax.helpers.DefaultHandler;

/**
 * Thesis figure 3.6: SAX parser inversion. The JDK's SAX parser pushes elements at a callback;
 * run inside an {@link AsymCoroutine}, its {@code startElement} callback {@code ret}s each
 * element's name, so the caller pulls one element per {@link #call}. When the document ends,
 * {@code run} returns {@code null}, which is the last call's output.
 *
 * <p>{@link #main} is the figure's loop, which prints that final {@code null} too, just as the
 * thesis code does; {@link CoSAXParserIteration} is figure 3.7, the enhanced-for version, which
 * does not. With an argument, it parses that file instead of the bundled {@code catalogue.xml}.
 */
public class CoSAXParser extends AsymCoroutine<Void, String> {

    /** The document bundled with the examples, next to this class. */
    public static final String CATALOGUE = "catalogue.xml";

    /** Opens the document to parse; the parser closes it when it finishes or is closed. */
    @FunctionalInterface
    public interface XmlSource {
        InputStream open() throws IOException;
    }

    private final String description;
    private final XmlSource source;

    /** A parser of the bundled {@code catalogue.xml}. */
    public CoSAXParser() {
        this(CATALOGUE, () -> {
            InputStream in = CoSAXParser.class.getResourceAsStream(CATALOGUE);
            if (in == null) {
                throw new FileNotFoundException("resource " + CATALOGUE + " next to " + CoSAXParser.class.getName());
            }
            return in;
        });
    }

    /** A parser of {@code file}. */
    public CoSAXParser(Path file) {
        this(file.toString(), () -> Files.newInputStream(file));
    }

    /** A parser of what {@code source} opens; {@code description} names it in errors. */
    public CoSAXParser(String description, XmlSource source) {
        this.description = description;
        this.source = source;
    }

    /** The parser for a command line: the file named by the first argument, else the catalogue. */
    public static CoSAXParser forArguments(String[] args) {
        return args.length > 0 ? new CoSAXParser(Path.of(args[0])) : new CoSAXParser();
    }

    @Override
    protected String run(Void input) {
        try (InputStream in = source.open()) {
            SAXParser parser = SAXParserFactory.newInstance().newSAXParser();
            parser.parse(in, new DefaultHandler() {
                @Override
                public void startElement(String uri, String localName, String qName, Attributes attributes) {
                    ret(qName);
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + description, e);
        } catch (SAXException | ParserConfigurationException e) {
            throw new IllegalArgumentException("cannot parse " + description + ": " + e.getMessage(), e);
        }
        return null;
    }

    public static void main(String[] args) {
        printElements(forArguments(args), System.out);
    }

    /** Figure 3.6's loop: call until finished, printing every output, the final {@code null} included. */
    public static void printElements(CoSAXParser parser, PrintStream out) {
        while (!parser.isFinished()) {
            String element = parser.call(null);
            out.println(element);
        }
    }
}
