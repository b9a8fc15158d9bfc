package dev.weft.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LibrariesSectionTest {

    private static Bench bench(Path dir) {
        Settings settings = Settings.quickRun();
        return new Bench(settings, Machine.describe(), new JmhRunner(settings, dir), new ProbeRunner(dir), new Progress(0));
    }

    private static LibrariesSection.Woven sizes(long classBytes, long wovenClassBytes) {
        return new LibrariesSection.Woven(classBytes, wovenClassBytes, classBytes / 2, wovenClassBytes / 2,
                new MethodSizes(), new MethodSizes(), 0);
    }

    private static Outcome ns(double value) {
        return Outcome.measured(value, "ns/op", 2);
    }

    /** commons-lang3 measured within every goal, guava outside every one, jackson not at all. */
    private static LibrariesSection measured(Path dir) {
        LibrariesSection s = new LibrariesSection(dir, dir);
        Bench bench = bench(dir);
        for (double fork : new double[] {100, 104, 130}) {
            s.addFork(LibraryWork.COMMONS_LANG3, "unwoven", ns(100));
            s.addFork(LibraryWork.COMMONS_LANG3, "woven", ns(fork));
            s.addFork(LibraryWork.GUAVA, "unwoven", ns(100));
            s.addFork(LibraryWork.GUAVA, "woven", ns(120));
            s.addFork(LibraryWork.GUAVA, "unwoven, inlining limits raised", ns(90));
            s.addFork(LibraryWork.GUAVA, "woven, inlining limits raised", ns(99));
        }
        s.addStart(LibraryWork.COMMONS_LANG3, "unwoven", 100, 20);
        s.addStart(LibraryWork.COMMONS_LANG3, "woven", 125, 40);
        s.addStart(LibraryWork.GUAVA, "unwoven", 100, 20);
        s.addStart(LibraryWork.GUAVA, "woven", 140, 60);
        s.recordWoven(bench, LibraryWork.COMMONS_LANG3, sizes(1000, 2000));
        s.recordWoven(bench, LibraryWork.GUAVA, sizes(1000, 4300));
        s.addInlining(LibraryWork.GUAVA, "unwoven", InliningLogTest.log(InliningLogTest.HASH_MAP_TOO_BIG));
        s.addInlining(LibraryWork.GUAVA, "woven", InliningLogTest.log(InliningLogTest.HASH_MAP_TOO_BIG,
                InliningLogTest.GUAVA_HOT_TOO_BIG, InliningLogTest.GUAVA_HOT_TOO_BIG));
        return s;
    }

    @Test
    void theSteadyStateIsTheMedianOfTheForksMedians(@TempDir Path dir) {
        LibrariesSection s = measured(dir);
        assertEquals(104, s.steady(LibraryWork.COMMONS_LANG3, "woven").value());
        assertEquals(6, s.steady(LibraryWork.COMMONS_LANG3, "woven").samples());
        s.addFork(LibraryWork.JACKSON, "woven", ns(10));
        s.addFork(LibraryWork.JACKSON, "woven", Outcome.failed("set-up failed"));
        assertEquals("set-up failed", s.steady(LibraryWork.JACKSON, "woven").failure());
        assertEquals(2.5, LibrariesSection.median(List.of(4.0, 1.0, 3.0, 2.0)));
    }

    @Test
    void eachLibraryHasItsThreeGoalsMetMissedOrNotMeasured(@TempDir Path dir) {
        List<Target> targets = measured(dir).targets(PeerResults.notRun("none"));
        assertEquals(9, targets.size());
        assertEquals(List.of(Target.Status.MET, Target.Status.MET, Target.Status.MET, Target.Status.MISSED,
                Target.Status.MISSED, Target.Status.MISSED, Target.Status.NOT_MEASURED, Target.Status.NOT_MEASURED,
                Target.Status.NOT_MEASURED), targets.stream().map(Target::status).toList());
        assertEquals("104 ns vs unwoven 100 ns = 1.04×", targets.get(0).measured());
        assertTrue(targets.get(3).ifMissed().contains("is 1.10×; the JIT refused 3 call sites for size woven against 1"
                + " unwoven (one fork each, -XX:+PrintInlining), most often `RegularImmutableMap::get` (676 bytes woven)"),
                targets.get(3).ifMissed());
        assertEquals("140 ms vs unwoven 100 ms = 1.40×", targets.get(4).measured());
        assertTrue(targets.get(4).ifMissed().contains("60.0 ms woven vs 20.0 ms unwoven"), targets.get(4).ifMissed());
        assertTrue(targets.get(5).measured().startsWith("4,300 vs 1,000 B = 4.30×"), targets.get(5).measured());
    }

    @Test
    void thePageShowsEveryTable(@TempDir Path dir) {
        Page page = new Page(dir, dir, Settings.quickRun(), PeerResults.notRun("none"));
        measured(dir).write(page);
        String text = page.text();
        assertTrue(text.contains("## 10. Woven libraries outside coroutines"), text);
        assertTrue(text.contains("| guava ") && text.contains("1.20×") && text.contains("1.40×"), text);
        assertTrue(text.contains("-XX:FreqInlineSize=3000") && text.contains("`StringUtils.split` (commons-lang3)"), text);
        assertTrue(text.contains("| 1 (1) ") && text.contains("| 3 (2) ") && text.contains("`RegularImmutableMap::get` 2 (676)"),
                text);
    }
}
