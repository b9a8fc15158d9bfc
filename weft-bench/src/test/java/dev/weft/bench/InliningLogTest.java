package dev.weft.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class InliningLogTest {

    static final String HASH_MAP_TOO_BIG =
            "                              @ 62   java.util.HashMap::resize (356 bytes)   failed to inline: too big";
    static final String GUAVA_HOT_TOO_BIG = "          @ 71   com.google.common.collect.RegularImmutableMap::get"
            + " (676 bytes)   failed to inline: hot method too big";

    static InliningLog log(String... lines) {
        return InliningLog.parse(Stream.of(lines));
    }

    @Test
    void onlyRefusalsForSizeAreCountedByCallee() {
        InliningLog log = log(HASH_MAP_TOO_BIG, GUAVA_HOT_TOO_BIG, GUAVA_HOT_TOO_BIG,
                "  @ 8   com.google.common.collect.ImmutableList::copyOf (53 bytes)   inline (hot)",
                "  @ 3   com.google.common.collect.Lists::transform (20 bytes)   failed to inline: inlining too deep",
                "  @ 9   com.google.common.base.Preconditions::checkIndex (12 bytes)   failed to inline: already"
                        + " compiled into a big method",
                "<tty_done stamp='1.0'/>");
        assertEquals(4, log.refusals());
        assertEquals(3, log.methods());
        assertEquals(List.of(new InliningLog.Refusal("com.google.common.collect.RegularImmutableMap::get", 676, 2),
                new InliningLog.Refusal("com.google.common.base.Preconditions::checkIndex", 12, 1)),
                log.mostRefused("com.google.common.", 5));
        assertEquals(1, log.mostRefused("com.google.common.", 1).size());
    }
}
