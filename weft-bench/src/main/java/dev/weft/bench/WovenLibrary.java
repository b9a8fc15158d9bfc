package dev.weft.bench;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.common.collect.ImmutableList;
import dev.weft.Coroutine;
import dev.weft.weaver.WeaveCommand;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.apache.commons.lang3.StringUtils;

/**
 * A library of section 10: its jars as this JVM's class path has them, unwoven, and their copies
 * woven whole by the weaver's command line ({@link WeaveCommand#run}, what
 * {@code java -jar weft-weaver-VERSION-agent.jar IN.jar OUT.jar} runs) into a folder of
 * {@code weft-bench/target}, each with the weaver's report of what it left as compiled beside it.
 * A woven copy is reused while its original and the weaver's own classes are the same bytes as
 * when it was made (a {@code .stamp} file beside it holds their digests).
 */
final class WovenLibrary {

    /** One jar of the library: the original, and where its woven copy goes. */
    record Jar(Path original, Path woven) {
        Path report() {
            return Path.of(woven + ".report");
        }

        Path stamp() {
            return Path.of(woven + ".stamp");
        }
    }

    private final String name;
    private final List<Jar> jars;

    WovenLibrary(String name, List<Jar> jars) {
        this.name = name;
        this.jars = List.copyOf(jars);
    }

    /** The three libraries of the section's workloads ({@link LibraryWork}), to be woven into {@code wovenDir}. */
    static List<WovenLibrary> all(Path wovenDir) {
        return List.of(
                of(LibraryWork.COMMONS_LANG3, wovenDir, StringUtils.class),
                of(LibraryWork.GUAVA, wovenDir, ImmutableList.class),
                of(LibraryWork.JACKSON, wovenDir, ObjectMapper.class, JsonFactory.class, JsonProperty.class));
    }

    /** The library whose jars hold {@code classes}, one class of each jar. */
    private static WovenLibrary of(String name, Path wovenDir, Class<?>... classes) {
        List<Jar> jars = new ArrayList<>();
        for (Class<?> type : classes) {
            Path original = location(type);
            jars.add(new Jar(original, wovenDir.resolve(original.getFileName())));
        }
        return new WovenLibrary(name, jars);
    }

    /** The jar or folder {@code type} was loaded from. */
    static Path location(Class<?> type) {
        try {
            return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toAbsolutePath().normalize();
        } catch (URISyntaxException e) {
            throw new IllegalStateException("where " + type.getName() + " was loaded from", e);
        }
    }

    String name() {
        return name;
    }

    List<Jar> jars() {
        return jars;
    }

    /**
     * Weaves every jar that has no up-to-date woven copy. Returns, per jar, the last line the
     * weaver printed (what it wove), with "(reused)" for a copy kept.
     *
     * @throws IOException if the weaver fails or writes to standard error
     */
    List<String> weave() throws IOException {
        List<String> said = new ArrayList<>();
        for (Jar jar : jars) {
            String stamp = digest(jar.original()) + " " + weaverDigest();
            if (Files.isRegularFile(jar.woven()) && Files.isRegularFile(jar.stamp())
                    && Files.readString(jar.stamp()).equals(stamp)) {
                said.add(jar.woven().getFileName() + " (reused)");
                continue;
            }
            Files.createDirectories(jar.woven().getParent());
            Files.deleteIfExists(jar.stamp());
            said.add(weave(jar));
            Files.writeString(jar.stamp(), stamp);
        }
        return said;
    }

    private static String weave(Jar jar) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = WeaveCommand.run(new String[] {"--report", jar.report().toString(), jar.original().toString(),
                jar.woven().toString()}, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        String printed = out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8);
        if (status != 0 || err.size() > 0) {
            throw new IOException("the weave command's exit status " + status + " for " + jar.original() + ": "
                    + printed.strip());
        }
        return printed.strip().lines().reduce((a, b) -> b).orElse("");
    }

    /** The lines of the weaver's reports that name something left as compiled (not their headers). */
    long leftAsCompiled() throws IOException {
        long lines = 0;
        for (Jar jar : jars) {
            try (Stream<String> report = Files.lines(jar.report())) {
                lines += report.filter(l -> !l.isBlank() && !l.startsWith("#")).count();
            }
        }
        return lines;
    }

    /**
     * {@code hostClassPath} with this library's original jars replaced by their woven copies
     * ({@code woven}), or as it is.
     *
     * @throws IllegalStateException if a jar of the library is not on it
     */
    String classPath(String hostClassPath, boolean woven) {
        List<String> entries = new ArrayList<>(List.of(hostClassPath.split(File.pathSeparator)));
        for (Jar jar : jars) {
            int at = indexOf(entries, jar.original());
            if (at < 0) {
                throw new IllegalStateException(jar.original() + " is not on the class path " + hostClassPath);
            }
            entries.set(at, (woven ? jar.woven() : jar.original()).toString());
        }
        return String.join(File.pathSeparator, entries);
    }

    private static int indexOf(List<String> entries, Path jar) {
        for (int i = 0; i < entries.size(); i++) {
            if (!entries.get(i).isEmpty() && Path.of(entries.get(i)).toAbsolutePath().normalize().equals(jar)) {
                return i;
            }
        }
        return -1;
    }

    /**
     * The class path of the start-up probe: the probe's own classes, this library's jars
     * ({@code woven} or not), and Weft's runtime, which woven code calls (on both, so that the two
     * differ by the library's jars only).
     */
    String probeClassPath(boolean woven) {
        List<String> entries = new ArrayList<>(List.of(location(LibraryStartProbe.class).toString()));
        jars.forEach(j -> entries.add((woven ? j.woven() : j.original()).toString()));
        entries.add(location(Coroutine.class).toString());
        return String.join(File.pathSeparator, entries);
    }

    /** The uncompressed bytes of the {@code .class} entries of the library's jars, original or woven. */
    long classBytes(boolean woven) throws IOException {
        long bytes = 0;
        for (Jar jar : jars) {
            try (ZipFile zip = new ZipFile((woven ? jar.woven() : jar.original()).toFile())) {
                bytes += zip.stream().filter(e -> e.getName().endsWith(".class")).mapToLong(ZipEntry::getSize).sum();
            }
        }
        return bytes;
    }

    /** The sizes of the library's jar files, original or woven. */
    long jarBytes(boolean woven) throws IOException {
        long bytes = 0;
        for (Jar jar : jars) {
            bytes += Files.size(woven ? jar.woven() : jar.original());
        }
        return bytes;
    }

    /** The bytecode sizes of every method of the library's classes, original or woven. */
    MethodSizes methodSizes(boolean woven) throws IOException {
        MethodSizes sizes = new MethodSizes();
        for (Jar jar : jars) {
            sizes.addJar(woven ? jar.woven() : jar.original());
        }
        return sizes;
    }

    /** The weaver's classes, as a digest: its jar's bytes, or the files of its classes folder. */
    private static String weaverDigest() throws IOException {
        Path weaver = location(WeaveCommand.class);
        if (Files.isRegularFile(weaver)) {
            return digest(weaver);
        }
        MessageDigest sha = sha256();
        try (Stream<Path> files = Files.walk(weaver)) {
            for (Path file : files.filter(Files::isRegularFile).sorted().toList()) {
                sha.update(weaver.relativize(file).toString().getBytes(StandardCharsets.UTF_8));
                sha.update(Files.readAllBytes(file));
            }
        }
        return HexFormat.of().formatHex(sha.digest());
    }

    private static String digest(Path file) throws IOException {
        MessageDigest sha = sha256();
        try (InputStream in = Files.newInputStream(file)) {
            byte[] buffer = new byte[1 << 16];
            for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                sha.update(buffer, 0, n);
            }
        }
        return HexFormat.of().formatHex(sha.digest());
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
