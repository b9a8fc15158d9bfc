package dev.weft.sessions;

import java.util.List;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.AsymCoroutine;
import dev.weft.sessions.flows.Echo;
import org.junit.jupiter.api.Test;

/** Build manifests: what a stored session's frames are made of, and whether a node accepts them. */
class BuildsTest {

    @Test
    void theManifestSeenWhileWritingIsTheOneOfTheFrames() throws Exception {
        AsymCoroutine<String, String> echo = new AsymCoroutine<>(new Echo());
        assertEquals("hello", echo.call("hello"));
        StateCodec.Written written = new StateCodec(getClass().getClassLoader()).write(echo);
        Builds.Manifest fromFrames = Builds.of(echo.serialize());
        assertEquals(fromFrames, written.manifest());
        assertEquals(2, fromFrames.text().split("\n").length, "run and loop, no bridge: " + fromFrames.text());
        assertTrue(!fromFrames.text().contains("strip"), "not the Method in a slot: " + fromFrames.text());
        assertTrue(fromFrames.text().contains("dev.weft.sessions.flows.Echo\tloop("), fromFrames.text());
        assertNull(new Builds(getClass().getClassLoader()).refusal(fromFrames.build(), fromFrames.text()));
    }

    /** {@code manifest}'s refusal by {@code builds}, stored under the build it hashes to. */
    private static String refusal(Builds builds, String manifest) {
        return builds.refusal(Builds.fingerprint(manifest), manifest);
    }

    @Test
    void aManifestNamingCodeThatIsNotHereIsRefusedWithAReason() {
        Builds builds = new Builds(getClass().getClassLoader());
        assertEquals("class com.example.Gone does not exist here or cannot be loaded (ClassNotFoundException)",
                refusal(builds, "com.example.Gone\trun()V\tabc"));
        assertTrue(refusal(builds, "dev.weft.sessions.flows.Echo\tmissing()V\tabc").contains("does not exist here"
                + " or is not woven"));
        assertEquals("column build is NULL: the frames' build is not stored", builds.refusal(null, null));
        assertEquals("the manifest of build abc is not in the store (table weft_builds)", builds.refusal("abc", null));
        assertEquals("column build is NULL: the frames' build is not stored", builds.refusal(null, "x\ty\tz"));
    }

    @Test
    void aManifestIsAcceptedOnlyForTheBuildItHashesTo() throws Exception {
        AsymCoroutine<String, String> echo = new AsymCoroutine<>(new Echo());
        echo.call("hello");
        Builds.Manifest manifest = Builds.of(echo.serialize());
        Builds builds = new Builds(getClass().getClassLoader());
        String other = Builds.fingerprint("another manifest");
        String refusal = builds.refusal(other, manifest.text());
        assertTrue(refusal.startsWith("the stored manifest of build " + other + " is not that build's (it hashes to "
                + manifest.build()), refusal);
        assertNull(builds.refusal(manifest.build(), manifest.text()));
    }

    /** Echo's manifest with the fingerprint of its method {@code loop} replaced: a build of other code. */
    private static String withLoopChanged(boolean withSites) throws Exception {
        AsymCoroutine<String, String> echo = new AsymCoroutine<>(new Echo());
        echo.call("hello");
        StringBuilder manifest = new StringBuilder();
        for (String line : Builds.of(echo.serialize()).text().split("\n")) {
            String[] parts = line.split("\t");
            assertEquals(4, parts.length, "class, method, fingerprint, sites: " + line);
            if (parts[1].startsWith("loop(")) {
                parts[2] = "formerloop";
            }
            String kept = String.join("\t", withSites ? parts : java.util.Arrays.copyOf(parts, 3));
            manifest.append(manifest.length() == 0 ? "" : "\n").append(kept);
        }
        return manifest.toString();
    }

    @Test
    void aNodeThatAcceptsChangedCodeTakesABuildWhoseChangedMethodsCarryTheirSites() throws Exception {
        String changed = withLoopChanged(true);
        String build = Builds.fingerprint(changed);
        Builds exact = new Builds(getClass().getClassLoader());
        String refusal = exact.refusal(build, changed);
        assertTrue(refusal.startsWith("method dev.weft.sessions.flows.Echo.loop(") && refusal.endsWith(
                " has other code here (fingerprint formerloop stored, " + refusal.substring(refusal.indexOf(" stored, ")
                        + 9, refusal.indexOf(" here)")) + " here); a node that accepts changed code resumes its frames"
                        + " where they still fit"), refusal);

        Builds accepting = new Builds(getClass().getClassLoader(), true);
        Builds.Verdict verdict = accepting.verdict(build, changed);
        assertNull(verdict.refusal());
        assertNotNull(verdict.formerSites(), "its frames are matched by the stored sites");
        String loopLine = changed.lines().filter(l -> l.contains("\tloop(")).findFirst().orElseThrow();
        String[] parts = loopLine.split("\t");
        assertEquals(parts[3], verdict.formerSites().sitesOf(parts[0], parts[1], "formerloop"));
        assertNull(verdict.formerSites().sitesOf(parts[0], parts[1], "another"), "only the fingerprint stored");

        String without = withLoopChanged(false);
        assertTrue(accepting.refusal(Builds.fingerprint(without), without).endsWith(", and the stored manifest does"
                + " not carry the sites of its former code, to match its frames by (it was stored by a Weft before"
                + " manifests did)"), accepting.refusal(Builds.fingerprint(without), without));
    }

    @Test
    void aManifestOfTheSameCodeIsTakenAsItIsByANodeThatAcceptsChangedCode() throws Exception {
        AsymCoroutine<String, String> echo = new AsymCoroutine<>(new Echo());
        echo.call("hello");
        Builds.Manifest manifest = Builds.of(echo.serialize());
        assertEquals(Builds.Verdict.SAME_CODE, new Builds(getClass().getClassLoader(), true).verdict(manifest.build(),
                manifest.text()));
    }

    @Test
    void malformedAndHugeManifestsAreRefusedWithAReason() {
        Builds builds = new Builds(getClass().getClassLoader());
        assertEquals("the stored manifest is malformed: ", refusal(builds, ""));
        assertEquals("the stored manifest is malformed: a\tb", refusal(builds, "a\tb"));
        assertEquals("the stored manifest is malformed: a\tb\tc\td\te", refusal(builds, "a\tb\tc\td\te"));
        assertEquals("class a does not exist here or cannot be loaded (ClassNotFoundException)",
                refusal(builds, "a\tb\tc\tsites"), "a line with its sites is read as one without");
        String huge = "x".repeat(Builds.MAX_MANIFEST + 1);
        assertEquals("the stored manifest of build " + Builds.fingerprint(huge) + " has " + huge.length()
                + " characters, more than the " + Builds.MAX_MANIFEST + " a node reads", refusal(builds, huge));
        String longLine = "y".repeat(10_000);
        String quoted = refusal(builds, longLine);
        assertTrue(quoted.endsWith("... (10000 characters)") && quoted.length() < 300, quoted);
    }

    @Test
    void aClassThatCannotBeLoadedIsRefusedAndNoClassNamedByAManifestIsInitialized() {
        ClassLoader broken = new ClassLoader("broken", getClass().getClassLoader()) {
            @Override
            protected Class<?> findClass(String name) throws ClassNotFoundException {
                if (name.equals("com.example.Broken")) {
                    byte[] notAClass = {(byte) 0xCA, (byte) 0xFE, 0, 1, 2, 3};
                    return defineClass(name, notAClass, 0, notAClass.length);
                }
                throw new ClassNotFoundException(name);
            }
        };
        Builds builds = new Builds(broken);
        assertEquals("class com.example.Broken does not exist here or cannot be loaded (ClassFormatError)",
                refusal(builds, "com.example.Broken\trun()V\tabc"));
        int before = InitWitness.initialized.get();
        String refusal = refusal(builds, NamedByAManifest.class.getName() + "\trun()V\tabc");
        assertEquals("method " + NamedByAManifest.class.getName() + ".run()V does not exist here or is not woven",
                refusal);
        assertEquals(before, InitWitness.initialized.get(), "the class named by the manifest was not initialized");
    }

    @Test
    void verdictsAreKeptForABoundedNumberOfManifests() {
        Builds builds = new Builds(getClass().getClassLoader());
        for (int i = 0; i < 10 * Builds.VERDICTS; i++) {
            assertTrue(refusal(builds, "com.example.Gone" + i + "\trun()V\tabc").startsWith("class com.example.Gone"));
            assertTrue(builds.verdictsKept() <= Builds.VERDICTS, "kept " + builds.verdictsKept());
        }
        assertEquals(Builds.VERDICTS, builds.verdictsKept());
    }

    @Test
    void randomManifestsAreRefusedWithAReasonNeverAnException() {
        Builds builds = new Builds(getClass().getClassLoader());
        String[] pieces = {"\t", "\n", "dev.weft.sessions.flows.Echo", "loop(Ljava/lang/String;)V", "run()V", "[I",
            "[Ljava.lang.String;", "java.lang.Object", "", " ", "\u0000", "a.b.C$D", "..", "/", ";", "\uD800"};
        java.util.Random random = new java.util.Random(13);
        for (int i = 0; i < 2_000; i++) {
            StringBuilder manifest = new StringBuilder();
            for (int n = random.nextInt(12); n > 0; n--) {
                manifest.append(pieces[random.nextInt(pieces.length)]);
            }
            String text = manifest.toString();
            String refusal = refusal(builds, text);
            assertNotNull(refusal, "case " + i + " accepted: " + text);
        }
    }

    /** Counts initializations of {@link NamedByAManifest}, which must never happen here. */
    static final class InitWitness {
        static final java.util.concurrent.atomic.AtomicInteger initialized = new java.util.concurrent.atomic.AtomicInteger();
    }

    /** A class a manifest names; its static initializer says whether it ran. */
    static final class NamedByAManifest {
        static {
            InitWitness.initialized.incrementAndGet();
        }

        private NamedByAManifest() {
        }
    }
}
