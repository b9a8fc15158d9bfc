package dev.weft.library;

import java.io.File;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.stream.Stream;

/**
 * Finds a JDK 17, the oldest JDK the woven engine runs on, as {@code weft-jdk17-test}'s
 * {@code Jdk17Test} does: the JDK of {@code java} on the {@code PATH} if it is a JDK 17, else the
 * first JDK 17 under {@code /usr/lib/jvm}, a JDK's version read from its {@code release}
 * file.
 *
 * <p>Functions of the file system and the environment only; thread-safe.
 */
final class Jdk17 {

    private static final String FEATURE = "17";
    /** Where Debian and its kin install JDKs. */
    static final Path JVM_DIRECTORY = Path.of("/usr/lib/jvm");

    private Jdk17() {
    }

    /** The home of {@code java} on the PATH if it is a JDK 17, else of the first JDK 17 under /usr/lib/jvm; empty if none. */
    static Optional<Path> home() throws IOException {
        for (Path home : candidates()) {
            Path real = home.toRealPath();
            if (Files.isExecutable(java(real)) && isFeature17(real)) {
                return Optional.of(real);
            }
        }
        return Optional.empty();
    }

    /** The {@code java} of the JDK at {@code home}. */
    static Path java(Path home) {
        return home.resolve("bin/java");
    }

    /** The home of the first {@code java} on the PATH, then each directory under /usr/lib/jvm, sorted. */
    private static List<Path> candidates() throws IOException {
        List<Path> candidates = new ArrayList<>();
        for (String directory : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path java = Path.of(directory, "java");
            if (!directory.isEmpty() && Files.isExecutable(java)) {
                candidates.add(java.toRealPath().getParent().getParent());
                break;
            }
        }
        if (Files.isDirectory(JVM_DIRECTORY)) {
            try (Stream<Path> homes = Files.list(JVM_DIRECTORY)) {
                homes.sorted().forEach(candidates::add);
            }
        }
        return candidates;
    }

    /** Whether the JDK at {@code home} has a {@code release} file whose {@code JAVA_VERSION} is 17 or 17.x. */
    private static boolean isFeature17(Path home) throws IOException {
        Path release = home.resolve("release");
        if (!Files.isRegularFile(release)) {
            return false;
        }
        Properties values = new Properties();
        try (Reader in = Files.newBufferedReader(release)) {
            values.load(in);
        }
        String version = values.getProperty("JAVA_VERSION", "").replaceAll("^\"|\"$", "");
        return version.equals(FEATURE) || version.startsWith(FEATURE + ".");
    }
}
