package dev.weft.bench;

/**
 * One operation of section 10's workloads on a real library, the same compiled code whether the
 * library on the class path is woven or not: {@link CommonsLang3Work}, {@link GuavaWork},
 * {@link JacksonWork}. An instance holds its inputs and is used by one thread.
 *
 * <p>{@link #named} loads only the class of the workload it names, so that a fresh JVM that runs
 * one workload loads one library ({@link LibraryStartProbe}).
 */
interface LibraryWork {

    /** The names of the workloads, in the report's order: the libraries they call. */
    String COMMONS_LANG3 = "commons-lang3";
    String GUAVA = "guava";
    String JACKSON = "jackson";

    /** One operation; its result, for the caller to consume. */
    Object run();

    /**
     * Checks that {@code result}, what {@link #run} returned, is what the operation should give,
     * computed without the library where that is short.
     *
     * @throws IllegalStateException if it is not
     */
    void check(Object result);

    /** A class of the library this workload calls, whose class file tells whether the library was woven. */
    Class<?> libraryClass();

    static LibraryWork named(String name) {
        return switch (name) {
            case COMMONS_LANG3 -> new CommonsLang3Work();
            case GUAVA -> new GuavaWork();
            case JACKSON -> new JacksonWork();
            default -> throw new IllegalArgumentException("no library workload is named " + name);
        };
    }

    /** Fails with {@code what} unless {@code expected} equals {@code actual}. */
    static void expect(String what, Object expected, Object actual) {
        if (!expected.equals(actual)) {
            throw new IllegalStateException(what + ": expected " + expected + ", got " + actual);
        }
    }
}
