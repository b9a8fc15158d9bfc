package dev.weft.sessions;

import dev.weft.CoroutineFrame;
import dev.weft.internal.woven.WovenFrames;
import dev.weft.internal.woven.WovenMethods;

import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Build fingerprints: what code a stored session's frames belong to, and whether this node's code
 * is the same. A session's manifest lists, for each distinct method among its frames, the class,
 * the method's name and descriptor, and the weaver's fingerprint of its bytecode; the build is a
 * hash of the manifest. A node accepts a manifest only if each of its methods exists here, is
 * woven, and has the same fingerprint: then the frames can be restored as they were written.
 * Any thread.
 */
final class Builds {

    /** A session's manifest (one method a line, sorted) and its build fingerprint. */
    record Manifest(String text, String build) {
    }

    private final ClassLoader loader;
    /** Per manifest text, the reason this node refuses it, or "" if it accepts it. Builds are few. */
    private final Map<String, String> verdicts = new ConcurrentHashMap<>();

    Builds(ClassLoader loader) {
        this.loader = loader;
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
        return woven == null ? null : method.getDeclaringClass().getName() + "\t" + key + "\t" + woven.hash();
    }

    static String fingerprint(String manifest) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(manifest.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError("every JDK has SHA-256", e);
        }
    }

    /** Why this node's code cannot restore frames of {@code manifest}; null if it can. */
    String refusal(String manifest) {
        if (manifest == null) {
            return "no frames are stored";
        }
        String verdict = verdicts.computeIfAbsent(manifest, this::judge);
        return verdict.isEmpty() ? null : verdict;
    }

    private String judge(String manifest) {
        for (String line : manifest.split("\n")) {
            String[] parts = line.split("\t", -1);
            if (parts.length != 3) {
                return "the stored manifest is malformed: " + line;
            }
            String where = parts[0] + "." + parts[1];
            Class<?> type;
            try {
                type = Class.forName(parts[0], false, loader);
            } catch (ClassNotFoundException | LinkageError e) {
                return "class " + parts[0] + " does not exist here";
            }
            WovenMethods table = WovenMethods.of(type);
            WovenMethods.WovenMethod woven = table == null ? null : table.method(parts[1]);
            if (woven == null) {
                return "method " + where + " does not exist here or is not woven";
            }
            if (!woven.hash().equals(parts[2])) {
                return "method " + where + " has other code here (fingerprint " + parts[2] + " stored, " + woven.hash()
                        + " here)";
            }
        }
        return "";
    }
}
