package dev.weft.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Section 10: what weaving a real library whole costs the code that calls it outside any
 * coroutine (issue 34, point 4). commons-lang3, guava and jackson-databind (with jackson-core and
 * jackson-annotations) are woven whole by the weaver's command line at bench time
 * ({@link WovenLibrary}); the same unwoven workloads ({@link LibraryWork}) then run on the
 * original jars and on the woven copies, alternately, in one run: their steady state under JMH
 * ({@link WovenLibraryBenchmark}, one fork at a time), at default JIT settings and with the
 * inliner's size limits raised; a fresh JVM's start plus one operation
 * ({@link LibraryStartProbe}), timed from the process's start to its exit; and the class bytes.
 * The goals: steady state within 1.05x of unwoven, start plus first run within 1.3x, class
 * bytes within 2x. The profile it shows for what remains: the methods' bytecode sizes against
 * the inliner's limits ({@link MethodSizes}), and the call sites the JIT refused to inline for
 * size in one more fork each, unwoven and woven ({@link InliningLog}).
 */
final class LibrariesSection extends Section {

    private static final String WORKLOAD = "libraries";
    private static final String UNWOVEN = "unwoven";
    private static final String WOVEN = "woven";
    private static final String UNWOVEN_RAISED = "unwoven, inlining limits raised";
    private static final String WOVEN_RAISED = "woven, inlining limits raised";
    private static final Duration START_TIMEOUT = Duration.ofMinutes(2);
    private static final String INLINING_LOG = "inlining log";

    /** The inliner's size limits, raised about tenfold for the profile's rows. */
    static final List<String> RAISED_LIMITS = List.of("-XX:MaxInlineSize=300", "-XX:FreqInlineSize=3000",
            "-XX:InlineSmallCode=25000");

    static final double STEADY_GOAL = 1.05;
    static final double START_GOAL = 1.3;
    static final double BYTES_GOAL = 2.0;

    /** Methods on each workload's path (the largest overload of each), whose sizes the section shows. */
    static final Map<String, List<String>> PATH_METHODS = Map.of(
            LibraryWork.COMMONS_LANG3, List.of("org/apache/commons/lang3/StringUtils.split",
                    "org/apache/commons/lang3/StringUtils.join", "org/apache/commons/lang3/StringUtils.replace",
                    "org/apache/commons/lang3/StringUtils.abbreviate", "org/apache/commons/lang3/StringUtils.capitalize",
                    "org/apache/commons/lang3/builder/ToStringBuilder.append",
                    "org/apache/commons/lang3/builder/HashCodeBuilder.append"),
            LibraryWork.GUAVA, List.of("com/google/common/collect/ImmutableList.copyOf",
                    "com/google/common/collect/ImmutableList$Builder.add",
                    "com/google/common/collect/ImmutableSet$RegularSetBuilderImpl.add",
                    "com/google/common/collect/ImmutableMap$Builder.put",
                    "com/google/common/collect/RegularImmutableMap.fromEntryArray",
                    "com/google/common/collect/RegularImmutableMap.get"),
            LibraryWork.JACKSON, List.of("com/fasterxml/jackson/databind/ObjectMapper.writeValueAsString",
                    "com/fasterxml/jackson/databind/ser/BeanPropertyWriter.serializeAsField",
                    "com/fasterxml/jackson/databind/deser/BeanDeserializer.vanillaDeserialize",
                    "com/fasterxml/jackson/databind/deser/impl/FieldProperty.deserializeAndSet",
                    "com/fasterxml/jackson/core/json/ReaderBasedJsonParser.nextToken",
                    "com/fasterxml/jackson/core/json/WriterBasedJsonGenerator.writeString"));

    /** The packages of each library, dotted, for the callees its inlining log names most. */
    static final Map<String, String> PACKAGES = Map.of(LibraryWork.COMMONS_LANG3, "org.apache.commons.lang3.",
            LibraryWork.GUAVA, "com.google.common.", LibraryWork.JACKSON, "com.fasterxml.jackson.");

    /** What weaving a library gave: sizes, its methods' bytecode, and how much the weaver left as compiled. */
    record Woven(long classBytes, long wovenClassBytes, long jarBytes, long wovenJarBytes, MethodSizes methods,
            MethodSizes wovenMethods, long leftAsCompiled) {
    }

    private final Path wovenDir;
    private final Path logDir;
    /** Per library and variant, the median of each fork. */
    private final Map<String, Map<String, List<Outcome>>> forks = new LinkedHashMap<>();
    /** Per library, unwoven or woven: each start's wall time, and the part in main, in ms. */
    private final Map<String, Map<String, List<Double>>> starts = new LinkedHashMap<>();
    private final Map<String, Map<String, List<Double>>> inMain = new LinkedHashMap<>();
    private final Map<String, Woven> woven = new LinkedHashMap<>();
    /** Per library, unwoven or woven: the inlining refused for size in one fork. */
    private final Map<String, Map<String, InliningLog>> inlining = new LinkedHashMap<>();
    /** Per library, why it was not woven. */
    private final Map<String, String> notWoven = new LinkedHashMap<>();

    /** Weaves into {@code wovenDir} (under {@code weft-bench/target}); the JIT's inlining logs go to {@code logDir}. */
    LibrariesSection(Path wovenDir, Path logDir) {
        this.wovenDir = wovenDir;
        this.logDir = logDir;
    }

    @Override
    String title() {
        return "10. Woven libraries outside coroutines";
    }

    @Override
    int plannedSteps(Settings s) {
        return 3 * (4 * s.libraryRounds() + 2 + 2 * s.libraryStarts());
    }

    @Override
    double estimatedSeconds(Settings s) {
        double weaving = 60; // the three libraries woven on two cores, when no copy can be reused
        double extraWarmups = (s.libraryWarmups() - s.warmupIterations()) * s.warmupTime().toMillis() / 1000.0;
        return weaving + 3 * ((4 * s.libraryRounds() + 2) * (s.averageTimeRunSeconds() / s.forks() + extraWarmups)
                + 2 * s.libraryStarts() * 0.8);
    }

    @Override
    void measure(Bench bench) {
        List<WovenLibrary> ready = new ArrayList<>();
        for (WovenLibrary library : WovenLibrary.all(wovenDir)) {
            if (weave(bench, library)) {
                ready.add(library);
            }
        }
        steadyState(bench, ready, List.of(), UNWOVEN, WOVEN);
        steadyState(bench, ready, RAISED_LIMITS, UNWOVEN_RAISED, WOVEN_RAISED);
        ready.forEach(library -> inliningLogs(bench, library));
        ready.forEach(library -> starts(bench, library));
    }

    /** Weaves {@code library} (or reuses its copy) and records its sizes; false, recorded, if that failed. */
    private boolean weave(Bench bench, WovenLibrary library) {
        long start = System.nanoTime();
        try {
            List<String> said = library.weave();
            bench.note(library.name() + " woven in " + Format.number((System.nanoTime() - start) / 1e9) + " s: "
                    + String.join("; ", said));
            recordWoven(bench, library.name(), new Woven(library.classBytes(false), library.classBytes(true),
                    library.jarBytes(false), library.jarBytes(true), library.methodSizes(false),
                    library.methodSizes(true), library.leftAsCompiled()));
            return true;
        } catch (IOException | RuntimeException e) {
            notWoven.put(library.name(), String.valueOf(e.getMessage()));
            bench.record(WORKLOAD, "weaving", library.name(), Outcome.failed(String.valueOf(e.getMessage())));
            bench.note(library.name() + " not woven: " + e.getMessage());
            return false;
        }
    }

    void recordWoven(Bench bench, String library, Woven sizes) {
        woven.put(library, sizes);
        bench.record(WORKLOAD, "class bytes unwoven", library, Outcome.measured(sizes.classBytes(), "B", 1));
        bench.record(WORKLOAD, "class bytes woven", library, Outcome.measured(sizes.wovenClassBytes(), "B", 1));
        bench.record(WORKLOAD, "jar bytes unwoven", library, Outcome.measured(sizes.jarBytes(), "B", 1));
        bench.record(WORKLOAD, "jar bytes woven", library, Outcome.measured(sizes.wovenJarBytes(), "B", 1));
    }

    /**
     * Each round, each library once unwoven then once woven, one JMH fork each, with
     * {@code jvmArgs}: the two variants alternate, so that the machine's drift falls on both.
     */
    private void steadyState(Bench bench, List<WovenLibrary> libraries, List<String> jvmArgs, String unwoven,
            String woven) {
        for (int round = 1; round <= bench.settings().libraryRounds(); round++) {
            for (WovenLibrary library : libraries) {
                for (boolean isWoven : new boolean[] {false, true}) {
                    String variant = isWoven ? woven : unwoven;
                    addFork(library.name(), variant, bench.jmh(WORKLOAD, variant, library.name() + " fork " + round,
                            oneFork(bench.settings(), library, isWoven, jvmArgs)));
                }
            }
        }
        for (WovenLibrary library : libraries) {
            bench.record(WORKLOAD, unwoven, library.name(), steady(library.name(), unwoven));
            bench.record(WORKLOAD, woven, library.name(), steady(library.name(), woven));
        }
    }

    /** One JMH fork of {@code library}'s workload, on the original jars or the woven copies, with {@code jvmArgs}. */
    private static JmhRunner.Spec oneFork(Settings settings, WovenLibrary library, boolean woven, List<String> jvmArgs) {
        return JmhRunner.Spec.of(WovenLibraryBenchmark.class, "operation",
                        Map.of("library", library.name(), "woven", "" + woven), 1).withMaxForks(1)
                .withWarmupIterations(settings.libraryWarmups())
                .withClassPath(library.classPath(System.getProperty("java.class.path"), woven))
                .withJvmArgs(Stream.concat(jvmArgs.stream(), Stream.of("-Dweft.bench.fork=true")).toArray(String[]::new));
    }

    /** One more fork each, unwoven then woven, at default JIT settings, that logs the JIT's inlining decisions. */
    private void inliningLogs(Bench bench, WovenLibrary library) {
        for (boolean isWoven : new boolean[] {false, true}) {
            String variant = isWoven ? WOVEN : UNWOVEN;
            Path log = logDir.resolve("inlining-" + library.name() + "-" + variant + ".log");
            Outcome fork = bench.jmh(WORKLOAD, INLINING_LOG + " " + variant, library.name(),
                    oneFork(bench.settings(), library, isWoven, InliningLog.jvmOptions(log)));
            try {
                if (fork.ok()) {
                    addInlining(library.name(), variant, InliningLog.read(log));
                    bench.record(WORKLOAD, "inlining refused for size " + variant, library.name(),
                            Outcome.measured(inlining.get(library.name()).get(variant).refusals(), "call sites", 1));
                }
            } catch (IOException e) {
                bench.record(WORKLOAD, "inlining refused for size " + variant, library.name(),
                        Outcome.failed("no inlining log: " + e.getMessage()));
            }
        }
    }

    void addInlining(String library, String variant, InliningLog log) {
        inlining.computeIfAbsent(library, l -> new LinkedHashMap<>()).put(variant, log);
    }

    void addFork(String library, String variant, Outcome fork) {
        forks.computeIfAbsent(library, l -> new LinkedHashMap<>()).computeIfAbsent(variant, v -> new ArrayList<>())
                .add(fork);
    }

    /** The median of the forks' medians of {@code variant}, or the first failure. */
    Outcome steady(String library, String variant) {
        List<Outcome> outcomes = forks.getOrDefault(library, Map.of()).getOrDefault(variant, List.of());
        if (outcomes.isEmpty()) {
            return Outcome.failed("not measured");
        }
        for (Outcome o : outcomes) {
            if (!o.ok()) {
                return o;
            }
        }
        return Outcome.measured(median(outcomes.stream().map(Outcome::value).toList()), outcomes.get(0).unit(),
                outcomes.stream().mapToInt(Outcome::samples).sum());
    }

    /** Fresh JVMs, unwoven and woven in turn (which goes first alternates), each timed from start to exit. */
    private void starts(Bench bench, WovenLibrary library) {
        int repeats = bench.settings().libraryStarts();
        for (int r = 1; r <= repeats; r++) {
            for (boolean isWoven : r % 2 == 1 ? new boolean[] {false, true} : new boolean[] {true, false}) {
                String variant = isWoven ? WOVEN : UNWOVEN;
                String label = WORKLOAD + ": " + library.name() + " start + first run, " + variant + " " + r + "/"
                        + repeats;
                try {
                    long start = System.nanoTime();
                    Map<String, String> printed = bench.probe(label, LibraryStartProbe.class,
                            List.of(library.name(), variant, "" + r), List.of(), library.probeClassPath(isWoven),
                            START_TIMEOUT);
                    double wallMillis = (System.nanoTime() - start) / 1e6;
                    double mainMillis = ProbeRunner.number(printed, "first-run-ns") / 1e6;
                    addStart(library.name(), variant, wallMillis, mainMillis);
                    bench.probed(label, Format.number(wallMillis) + " ms (in main " + Format.number(mainMillis) + ")");
                } catch (ProbeRunner.ProbeFailure e) {
                    bench.record(WORKLOAD, "start + first run " + variant, library.name(),
                            Outcome.failed(e.getMessage()));
                    return;
                }
            }
        }
        for (String variant : List.of(UNWOVEN, WOVEN)) {
            bench.record(WORKLOAD, "start + first run " + variant, library.name(), start(library.name(), variant));
        }
    }

    void addStart(String library, String variant, double wallMillis, double mainMillis) {
        starts.computeIfAbsent(library, l -> new LinkedHashMap<>()).computeIfAbsent(variant, v -> new ArrayList<>())
                .add(wallMillis);
        inMain.computeIfAbsent(library, l -> new LinkedHashMap<>()).computeIfAbsent(variant, v -> new ArrayList<>())
                .add(mainMillis);
    }

    /** The median start plus first run of {@code variant}, in ms. */
    Outcome start(String library, String variant) {
        return medianOf(starts, library, variant);
    }

    private Outcome inMain(String library, String variant) {
        return medianOf(inMain, library, variant);
    }

    private static Outcome medianOf(Map<String, Map<String, List<Double>>> values, String library, String variant) {
        List<Double> millis = values.getOrDefault(library, Map.of()).getOrDefault(variant, List.of());
        return millis.isEmpty() ? Outcome.failed("not measured") : Outcome.measured(median(millis), "ms", millis.size());
    }

    static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    private static final String DESCRIPTION = """
            The libraries are woven whole at bench time by the weaver's command line (`WeaveCommand`, \
            what `java -jar weft-weaver-VERSION-agent.jar IN.jar OUT.jar` runs): commons-lang3 3.19.0, \
            guava 33.8.0-jre, and jackson-databind 2.23.0 with jackson-core 2.23.0 and jackson-annotations \
            2.23, into `weft-bench/target/woven-libraries/` (a copy is reused while its jar and the \
            weaver's classes are unchanged). The workloads are plain classes of this module, compiled \
            unwoven, that call the library outside any coroutine: **commons-lang3**, 64 items through \
            `StringUtils` (split, join, replace, abbreviate, capitalize, leftPad) and `ToStringBuilder`, \
            `EqualsBuilder`, `HashCodeBuilder`; **guava**, 200 numbers into an `ImmutableList` (copied \
            and built), an `ImmutableSet`, an `ImmutableMap` and an `ImmutableListMultimap`, read back, \
            and through `Lists.transform`; **jackson**, 200 orders (nested objects, a list, a map, an \
            enum, numbers, text) written to JSON by an `ObjectMapper` and read back. Each checks its \
            result once. **Steady state**: JMH's time per operation, in forks whose class path has the \
            original jars or the woven copies in their place (each fork's set-up checks which), at \
            default JIT settings, after %d warm-up iterations (woven methods are larger and take longer \
            to compile); each round runs every library once unwoven and once woven, one fork each, %d \
            round%s; the figure is the median of the forks' medians. The rows *inlining limits \
            raised* run the same with `%s`. **Start + first run**: a fresh JVM on a class path of the \
            workload's classes, the library's jars (original or woven) and weft-core, that makes the \
            workload, runs it once and checks it, timed by the report from the process's start to its \
            exit; %d JVMs each, unwoven and woven in turn; median, with the range; *in main* is the part \
            from `main`'s start to the checked result. **Class bytes**: the uncompressed `.class` entries \
            of the jars.""";

    @Override
    void write(Page page) {
        Settings s = page.settings();
        page.heading(2, title());
        page.paragraph(DESCRIPTION.formatted(s.libraryWarmups(), s.libraryRounds(), s.libraryRounds() == 1 ? "" : "s",
                String.join(" ", RAISED_LIMITS), s.libraryStarts()));
        if (!notWoven.isEmpty()) {
            page.bullets(notWoven.entrySet().stream().map(e -> e.getKey() + " not woven: " + e.getValue()).toList());
        }
        page.table(steadyTable());
        page.table(startTable());
        page.table(sizeTable());
        page.paragraph(profile());
        page.table(pathTable());
        page.paragraph(INLINING_TEXT);
        page.table(inliningTable());
    }

    private Table steadyTable() {
        Table t = new Table("steady state", "unwoven (µs/op)", "woven (µs/op)", "woven / unwoven",
                "unwoven, limits raised (µs/op)", "woven, limits raised (µs/op)", "woven / unwoven, limits raised");
        for (String library : forks.keySet()) {
            t.row(library, micros(steady(library, UNWOVEN)), micros(steady(library, WOVEN)),
                    Format.ratio(steady(library, WOVEN).ratioTo(steady(library, UNWOVEN))),
                    micros(steady(library, UNWOVEN_RAISED)), micros(steady(library, WOVEN_RAISED)),
                    Format.ratio(steady(library, WOVEN_RAISED).ratioTo(steady(library, UNWOVEN_RAISED))));
        }
        return t;
    }

    private static String micros(Outcome nanos) {
        return Format.outcome(nanos.map(ns -> ns / 1_000, "µs/op"));
    }

    private Table startTable() {
        Table t = new Table("start + first run", "unwoven (ms)", "woven (ms)", "woven / unwoven",
                "in main, unwoven (ms)", "in main, woven (ms)");
        for (String library : starts.keySet()) {
            t.row(library, withRange(starts, library, UNWOVEN), withRange(starts, library, WOVEN),
                    Format.ratio(start(library, WOVEN).ratioTo(start(library, UNWOVEN))),
                    Format.outcome(inMain(library, UNWOVEN)), Format.outcome(inMain(library, WOVEN)));
        }
        return t;
    }

    private static String withRange(Map<String, Map<String, List<Double>>> values, String library, String variant) {
        List<Double> millis = values.getOrDefault(library, Map.of()).getOrDefault(variant, List.of());
        if (millis.isEmpty()) {
            return Format.NONE;
        }
        return Format.number(median(millis)) + " (" + Format.number(millis.stream().mapToDouble(d -> d).min().orElseThrow())
                + "–" + Format.number(millis.stream().mapToDouble(d -> d).max().orElseThrow()) + ")";
    }

    private Table sizeTable() {
        Table t = new Table("bytes", "class bytes", "woven", "woven / unwoven", "jar files", "woven", "woven / unwoven",
                "left as compiled");
        woven.forEach((library, w) -> t.row(library, Format.count(w.classBytes()), Format.count(w.wovenClassBytes()),
                Format.ratio((double) w.wovenClassBytes() / w.classBytes()), Format.count(w.jarBytes()),
                Format.count(w.wovenJarBytes()), Format.ratio((double) w.wovenJarBytes() / w.jarBytes()),
                Format.count(w.leftAsCompiled())));
        return t;
    }

    /** What the method sizes show, in words with their numbers. */
    private String profile() {
        StringBuilder text = new StringBuilder("""
                **Profile.** HotSpot's JIT inlines a callee of at most %d bytes of bytecode at any call site \
                and one of at most %d at a hot one; a method over them stays a call, and the code that calls \
                it is optimized without it. Over each library's methods with code, unwoven → woven: \
                """.formatted(MethodSizes.MAX_INLINE_SIZE, MethodSizes.FREQ_INLINE_SIZE));
        List<String> parts = new ArrayList<>();
        woven.forEach((library, w) -> parts.add("%s, %s methods, %s → %s bytes of bytecode, over %d bytes %s → %s, over %d bytes %s → %s"
                .formatted(library, Format.count(w.methods().methods()), Format.count(w.methods().codeBytes()),
                        Format.count(w.wovenMethods().codeBytes()), MethodSizes.MAX_INLINE_SIZE,
                        Format.count(w.methods().over(MethodSizes.MAX_INLINE_SIZE)),
                        Format.count(w.wovenMethods().over(MethodSizes.MAX_INLINE_SIZE)), MethodSizes.FREQ_INLINE_SIZE,
                        Format.count(w.methods().over(MethodSizes.FREQ_INLINE_SIZE)),
                        Format.count(w.wovenMethods().over(MethodSizes.FREQ_INLINE_SIZE)))));
        text.append(String.join("; ", parts)).append(". The steady-state rows *limits raised* show how much of the "
                + "gap is left once the inliner takes methods ten times larger. The methods below are on the "
                + "workloads' paths, chosen by reading them, not by a profiler: the largest overload of each, in "
                + "bytes of bytecode.");
        return text.toString();
    }

    private Table pathTable() {
        Table t = new Table("method on the path", "unwoven (bytes)", "woven (bytes)",
                "within " + MethodSizes.MAX_INLINE_SIZE + ", unwoven → woven",
                "within " + MethodSizes.FREQ_INLINE_SIZE + ", unwoven → woven");
        woven.forEach((library, w) -> PATH_METHODS.get(library).forEach(method -> {
            int before = w.methods().largest(method);
            int after = w.wovenMethods().largest(method);
            boolean found = before >= 0 && after >= 0;
            t.row("`" + method.substring(method.lastIndexOf('/') + 1) + "` (" + library + ")",
                    found ? Format.count(before) : Format.NONE, found ? Format.count(after) : Format.NONE,
                    found ? within(before, after, MethodSizes.MAX_INLINE_SIZE) : Format.NONE,
                    found ? within(before, after, MethodSizes.FREQ_INLINE_SIZE) : Format.NONE);
        }));
        return t;
    }

    private static String within(int before, int after, int limit) {
        return (before <= limit ? "yes" : "no") + " → " + (after <= limit ? "yes" : "no");
    }

    private static final String INLINING_TEXT = """
            One more fork of each library, unwoven and woven, at default JIT settings, logs the JIT's \
            inlining decisions (`-XX:+PrintInlining` into a file, in `weft-bench/target/bench-logs/`): the \
            call sites it refused to inline for the callee's size (*too big*, *hot method too big*, \
            *already compiled into a big method*), over the whole fork (the harness's own compilations \
            included, the same on both), and the library's callees refused most often woven, with their \
            woven size.""";

    private Table inliningTable() {
        Table t = new Table("inlining refused for size", "unwoven: call sites (callees)",
                "woven: call sites (callees)", "refused most often, woven: times (bytes)").textColumns();
        inlining.forEach((library, logs) -> {
            InliningLog plain = logs.get(UNWOVEN);
            InliningLog wovenLog = logs.get(WOVEN);
            t.row(library, refusals(plain), refusals(wovenLog), wovenLog == null ? Format.NONE
                    : String.join(", ", wovenLog.mostRefused(PACKAGES.get(library), 3).stream()
                            .map(r -> "`" + shortName(r.method()) + "` " + r.times() + " (" + r.bytes() + ")").toList()));
        });
        return t;
    }

    private static String refusals(InliningLog log) {
        return log == null ? Format.NONE : Format.count(log.refusals()) + " (" + Format.count(log.methods()) + ")";
    }

    /** {@code com.example.Type::method} as {@code Type::method}. */
    private static String shortName(String method) {
        String type = method.substring(0, method.indexOf("::"));
        return type.substring(type.lastIndexOf('.') + 1) + method.substring(method.indexOf("::"));
    }

    @Override
    List<Target> targets(PeerResults peers) {
        List<Target> targets = new ArrayList<>();
        for (String library : List.of(LibraryWork.COMMONS_LANG3, LibraryWork.GUAVA, LibraryWork.JACKSON)) {
            targets.add(steadyTarget(library));
            targets.add(startTarget(library));
            targets.add(bytesTarget(library));
        }
        return targets;
    }

    private Target steadyTarget(String library) {
        String goal = library + " woven whole, called outside coroutines: steady state within " + Format.ratio(STEADY_GOAL)
                + " of unwoven (default JIT settings)";
        Outcome plain = steady(library, UNWOVEN);
        Outcome wovenTime = steady(library, WOVEN);
        double r = wovenTime.ratioTo(plain);
        if (Double.isNaN(r)) {
            return Target.notMeasured(goal, "failed: " + (plain.ok() ? wovenTime.failure() : plain.failure()));
        }
        double raised = steady(library, WOVEN_RAISED).ratioTo(steady(library, UNWOVEN_RAISED));
        return Target.of(goal, Format.nanos(wovenTime.value()) + " vs unwoven " + Format.nanos(plain.value()) + " = "
                + Format.ratio(r), r <= STEADY_GOAL).explainedIfMissed("with the inliner's size limits raised (`"
                + String.join(" ", RAISED_LIMITS) + "`) woven / unwoven is " + Format.ratio(raised)
                + inliningSummary(library) + "; section 10 shows the methods' sizes against the limits.");
    }

    /** The inlining logs' counts in words, or nothing without both logs. */
    private String inliningSummary(String library) {
        Map<String, InliningLog> logs = inlining.getOrDefault(library, Map.of());
        if (logs.get(UNWOVEN) == null || logs.get(WOVEN) == null) {
            return "";
        }
        List<InliningLog.Refusal> most = logs.get(WOVEN).mostRefused(PACKAGES.get(library), 1);
        return "; the JIT refused " + Format.count(logs.get(WOVEN).refusals()) + " call sites for size woven against "
                + Format.count(logs.get(UNWOVEN).refusals()) + " unwoven (one fork each, -XX:+PrintInlining)"
                + (most.isEmpty() ? "" : ", most often `" + shortName(most.get(0).method()) + "` ("
                        + most.get(0).bytes() + " bytes woven)");
    }

    private Target startTarget(String library) {
        String goal = library + " woven whole: JVM start plus first run within " + Format.ratio(START_GOAL) + " of unwoven";
        Outcome plain = start(library, UNWOVEN);
        Outcome wovenTime = start(library, WOVEN);
        double r = wovenTime.ratioTo(plain);
        if (Double.isNaN(r)) {
            return Target.notMeasured(goal, "not measured");
        }
        return Target.of(goal, Format.number(wovenTime.value()) + " ms vs unwoven " + Format.number(plain.value())
                + " ms = " + Format.ratio(r), r <= START_GOAL).explainedIfMissed("of which in `main` (loading, "
                + "verifying and interpreting the library's classes): " + Format.outcome(inMain(library, WOVEN))
                + " ms woven vs " + Format.outcome(inMain(library, UNWOVEN)) + " ms unwoven.");
    }

    private Target bytesTarget(String library) {
        String goal = library + " woven whole: class bytes within " + Format.ratio(BYTES_GOAL) + " of the original";
        Woven w = woven.get(library);
        if (w == null) {
            return Target.notMeasured(goal, "not woven: " + notWoven.getOrDefault(library, "not measured"));
        }
        double r = (double) w.wovenClassBytes() / w.classBytes();
        return Target.of(goal, Format.count(w.wovenClassBytes()) + " vs " + Format.count(w.classBytes()) + " B = "
                + Format.ratio(r) + " (jar files " + Format.ratio((double) w.wovenJarBytes() / w.jarBytes()) + ")",
                r <= BYTES_GOAL).explainedIfMissed("the methods' bytecode alone: " + Format.count(w.wovenMethods().codeBytes())
                + " vs " + Format.count(w.methods().codeBytes()) + " B = "
                + Format.ratio((double) w.wovenMethods().codeBytes() / w.methods().codeBytes()) + ".");
    }
}
