package dev.weft.sessions;

import java.util.List;
import static org.junit.jupiter.api.Assertions.assertEquals;
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
        StateCodec.Written written = new StateCodec(getClass().getClassLoader(), List.of()).write(echo);
        Builds.Manifest fromFrames = Builds.of(echo.serialize());
        assertEquals(fromFrames, written.manifest());
        assertEquals(2, fromFrames.text().split("\n").length, "run and loop, no bridge: " + fromFrames.text());
        assertTrue(!fromFrames.text().contains("strip"), "not the Method in a slot: " + fromFrames.text());
        assertTrue(fromFrames.text().contains("dev.weft.sessions.flows.Echo\tloop("), fromFrames.text());
        assertNull(new Builds(getClass().getClassLoader()).refusal(fromFrames.text()));
    }

    @Test
    void aManifestNamingCodeThatIsNotHereIsRefusedWithAReason() {
        Builds builds = new Builds(getClass().getClassLoader());
        assertEquals("class com.example.Gone does not exist here",
                builds.refusal("com.example.Gone\trun()V\tabc"));
        assertTrue(builds.refusal("dev.weft.sessions.flows.Echo\tmissing()V\tabc").contains("does not exist here"
                + " or is not woven"));
        assertEquals("no frames are stored", builds.refusal(null));
    }
}
