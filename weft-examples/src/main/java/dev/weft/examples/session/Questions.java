package dev.weft.examples.session;

import dev.weft.AsymCoroutine;
import dev.weft.CoroutineInputStream;
import dev.weft.CoroutineFiles;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Thesis section 5.2, the main program: each run is one step of an {@link Interaction}. It
 * loads the suspended interaction from {@code data.bin} in the working directory (if there is
 * one), gives it the first argument as the answer, prints the next question, and stores the
 * interaction again, or deletes the file once it has finished.
 *
 * <pre>
 * $ java ... dev.weft.examples.session.Questions
 * Please enter your name:
 * $ java ... dev.weft.examples.session.Questions "John Doe"
 * Please enter your country:
 * </pre>
 *
 * <p>The file is replaced atomically and durably ({@link CoroutineFiles}): a crash while
 * writing leaves the previous state intact, and no temporary file behind for long. Set the system property
 * {@code weft.session.file} to use another file.
 */
public final class Questions {

    private Questions() {
    }

    public static void main(String[] args) throws IOException {
        Path file = Path.of(System.getProperty("weft.session.file", "data.bin"));
        step(file, args.length > 0 ? args[0] : null, System.out);
    }

    /** One step: load or start the interaction, answer, print, store or delete. */
    public static void step(Path file, String answer, PrintStream out) throws IOException {
        AsymCoroutine<String, String> interaction = Files.exists(file) ? load(file)
                : new AsymCoroutine<>(new Interaction());
        try {
            out.println(interaction.call(answer));
            if (interaction.isFinished()) {
                Files.deleteIfExists(file);
            } else {
                store(interaction, file);
            }
        } finally {
            interaction.close(); // this process is done with it: the file holds what comes next
        }
    }

    /**
     * Plays the transcript of section 5.2 against a fresh file: each step loads the interaction
     * from the file and stores it again, as separate runs of {@link #main} would.
     */
    public static void transcript(PrintStream out) throws IOException {
        Path directory = Files.createTempDirectory("weft-session");
        Path file = directory.resolve("data.bin");
        try {
            for (String answer : new String[] {null, "John Doe", "Genovia", "twenty-eight", "28", "nospam@nospam.at"}) {
                out.println(answer == null ? "> java Questions" : "> java Questions \"" + answer + "\"");
                step(file, answer, out);
            }
        } finally {
            Files.deleteIfExists(file);
            Files.delete(directory);
        }
    }

    private static AsymCoroutine<String, String> load(Path file) throws IOException {
        try (InputStream bytes = Files.newInputStream(file);
                CoroutineInputStream<String, String> in = new CoroutineInputStream<>(bytes, Questions.class.getClassLoader())) {
            return in.readAsymCoroutine();
        }
    }

    private static void store(AsymCoroutine<String, String> interaction, Path file) throws IOException {
        CoroutineFiles.write(file, interaction, null); // atomic and durable; a key would seal it
    }
}
