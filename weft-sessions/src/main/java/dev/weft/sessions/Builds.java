package dev.weft.sessions;

import dev.weft.CoroutineFrame;
import dev.weft.CoroutineInputStream;
import dev.weft.CoroutineOutputStream;
import dev.weft.internal.woven.WovenFrames;
import dev.weft.internal.woven.WovenMethods;

import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Build fingerprints: what code a stored session's frames belong to, and whether this node's code
 * can take them. A session's manifest lists, for each distinct method among its frames, the class,
 * the method's name and descriptor, the weaver's fingerprint of its bytecode, and every site of
 * that code ({@link CoroutineOutputStream#sitesOf}); the build is a hash of the manifest. A node
 * accepts a manifest if each of its methods exists here, is woven, and has the same fingerprint:
 * then the frames are restored as they were written. A node that {@linkplain
 * Sessions.Builder#acceptChangedCode() accepts changed code} also accepts a method whose
 * fingerprint differs, if its line carries its sites: each frame of it is then matched to the new
 * code as it is read ({@link CoroutineInputStream#acceptChangedCode(CoroutineInputStream.FormerSites)}),
 * and refused there, frame by frame, if it does not fit. The sites are stored once per build, in
 * its manifest, and the build's hash covers them: a store cannot change what a frame is matched
 * by without changing the build, which the row's seal covers.
 *
 * <p>A manifest comes from the store, so it is judged as hostile: it is accepted only for the
 * build it hashes to, and only up to {@link #MAX_MANIFEST} characters; a line that is not
 * {@code class TAB method TAB fingerprint [TAB sites]} (manifests stored before they carried
 * sites have three fields), a class that does not exist or cannot be loaded, a method that is not
 * woven or has other code: each is a refusal with its reason, never an exception. A class is
 * looked up without initializing it; {@link WovenMethods#of} then initializes it only if the
 * weaver marked it (a woven class registers its methods' fingerprints in its static initializer).
 * Verdicts are kept for the last {@link #VERDICTS} distinct manifests, so that a store naming any
 * number of builds costs a bounded memory.
 *
 * <p>Any thread.
 */
final class Builds {

    /** A session's manifest (one method a line, sorted) and its build fingerprint. */
    record Manifest(String text, String build) {
    }

    /**
     * How this node takes a build: refused, and why; or accepted, as it is ({@code formerSites}
     * null) or on changed code, its frames matched by the sites of the manifest's changed methods.
     */
    record Verdict(String refusal, CoroutineInputStream.FormerSites formerSites) {
        static final Verdict SAME_CODE = new Verdict(null, null);

        static Verdict refused(String why) {
            return new Verdict(why, null);
        }
    }

    /** The longest manifest judged, in characters; a longer one is refused. A real one has a line per method of a session's frames. */
    static final int MAX_MANIFEST = 1 << 20;
    /** How many verdicts are kept, by build and manifest. */
    static final int VERDICTS = 256;

    private final ClassLoader loader;
    private final boolean acceptChangedCode;
    /** Per build and manifest, how this node takes it; the least recently used dropped first. */
    private final Map<Judged, Verdict> verdicts = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Judged, Verdict> eldest) {
            return size() > VERDICTS;
        }
    };

    private record Judged(String build, String manifest) {
    }

    Builds(ClassLoader loader) {
        this(loader, false);
    }

    /** Judges with {@code loader}'s classes; frames of changed code are accepted where they fit if {@code acceptChangedCode}. */
    Builds(ClassLoader loader, boolean acceptChangedCode) {
        this.loader = loader;
        this.acceptChangedCode = acceptChangedCode;
    }

    /** Whether this node accepts frames of changed code where they fit. */
    boolean acceptsChangedCode() {
        return acceptChangedCode;
    }

    /** The manifest of {@code frames}, as written by this node's code. */
    static Manifest of(CoroutineFrame[] frames) {
        List<Method> methods = new ArrayList<>();
        for (CoroutineFrame frame : frames) {
            methods.add(frame.method);
        }
        return of(methods);
    }

    /**
     * The manifest of frames of {@code methods}, as written by this node's code. Methods that are
     * not woven are left out: no frame can be one of theirs (serializing refuses such frames),
     * so such a method came from a value in a slot, not from a frame.
     */
    static Manifest of(Collection<Method> methods) {
        TreeSet<String> lines = new TreeSet<>();
        for (Method method : methods) {
            String line = line(method);
            if (line != null) {
                lines.add(line);
            }
        }
        String text = String.join("\n", lines);
        return new Manifest(text, fingerprint(text));
    }

    private static String line(Method method) {
        String key = method.getName() + WovenFrames.descriptorOf(method);
        WovenMethods table = WovenMethods.of(method.getDeclaringClass());
        WovenMethods.WovenMethod woven = table == null ? null : table.method(key);
        return woven == null ? null : method.getDeclaringClass().getName() + "\t" + key + "\t" + woven.hash() + "\t"
                + CoroutineOutputStream.sitesOf(method);
    }

    static String fingerprint(String manifest) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(manifest.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError("every JDK has SHA-256", e);
        }
    }

    /** Why this node's code cannot restore frames of {@code build}, whose manifest is {@code manifest}; null if it can. */
    String refusal(String build, String manifest) {
        return verdict(build, manifest).refusal();
    }

    /** How this node's code takes frames of {@code build}, whose manifest is {@code manifest}. */
    Verdict verdict(String build, String manifest) {
        if (build == null) {
            return Verdict.refused("column build is NULL: the frames' build is not stored");
        }
        if (manifest == null) {
            return Verdict.refused("the manifest of build " + build + " is not in the store (table weft_builds)");
        }
        if (manifest.length() > MAX_MANIFEST) {
            return Verdict.refused("the stored manifest of build " + build + " has " + manifest.length()
                    + " characters, more than the " + MAX_MANIFEST + " a node reads");
        }
        Judged judged = new Judged(build, manifest);
        Verdict verdict;
        synchronized (verdicts) {
            verdict = verdicts.get(judged);
        }
        if (verdict == null) {
            verdict = judge(build, manifest);
            synchronized (verdicts) {
                verdicts.put(judged, verdict);
            }
        }
        return verdict;
    }

    /** How many verdicts are kept now. */
    int verdictsKept() {
        synchronized (verdicts) {
            return verdicts.size();
        }
    }

    private Verdict judge(String build, String manifest) {
        String hashed = fingerprint(manifest);
        if (!hashed.equals(build)) {
            return Verdict.refused("the stored manifest of build " + build + " is not that build's (it hashes to "
                    + hashed + "): column manifest or table weft_builds was changed");
        }
        try {
            return judgeLines(manifest);
        } catch (RuntimeException e) {
            return Verdict.refused("the stored manifest cannot be judged here: " + e);
        }
    }

    private Verdict judgeLines(String manifest) {
        Map<String, String> changedSites = new HashMap<>();
        for (String line : manifest.split("\n", -1)) {
            String[] parts = line.split("\t", -1);
            if (parts.length != 3 && parts.length != 4) {
                return Verdict.refused("the stored manifest is malformed: " + abbreviated(line));
            }
            String where = parts[0] + "." + parts[1];
            Class<?> type;
            try {
                type = Class.forName(parts[0], false, loader);
            } catch (ClassNotFoundException | LinkageError e) {
                return Verdict.refused("class " + abbreviated(parts[0]) + " does not exist here or cannot be loaded ("
                        + e.getClass().getSimpleName() + ")");
            }
            WovenMethods table = WovenMethods.of(type);
            WovenMethods.WovenMethod woven = table == null ? null : table.method(parts[1]);
            if (woven == null) {
                return Verdict.refused("method " + abbreviated(where) + " does not exist here or is not woven");
            }
            if (!woven.hash().equals(parts[2])) {
                String otherCode = "method " + where + " has other code here (fingerprint " + abbreviated(parts[2])
                        + " stored, " + woven.hash() + " here)";
                if (!acceptChangedCode) {
                    return Verdict.refused(otherCode + "; a node that accepts changed code resumes its frames where"
                            + " they still fit");
                }
                if (parts.length == 3) {
                    return Verdict.refused(otherCode + ", and the stored manifest does not carry the sites of its"
                            + " former code, to match its frames by (it was stored by a Weft before manifests did)");
                }
                changedSites.put(siteKey(parts[0], parts[1], parts[2]), parts[3]);
            }
        }
        if (changedSites.isEmpty()) {
            return Verdict.SAME_CODE;
        }
        return new Verdict(null, (className, method, fingerprint) -> changedSites.get(siteKey(className, method,
                fingerprint)));
    }

    private static String siteKey(String className, String method, String fingerprint) {
        return className + "\t" + method + "\t" + fingerprint;
    }

    /** A stored text as a reason quotes it: at most 200 characters. */
    private static String abbreviated(String text) {
        return text.length() <= 200 ? text : text.substring(0, 200) + "... (" + text.length() + " characters)";
    }
}
