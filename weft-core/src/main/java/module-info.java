/**
 * Weft: symmetric and asymmetric coroutines for the JVM.
 *
 * <p>The whole public contract is the package {@link dev.weft}. The engines that actually
 * suspend and resume stacks live in {@code dev.weft.internal.*}, which is not exported.
 *
 * <p>The module runs on JDK 17 and later. The native engine runs on HotSpot's continuations
 * ({@code jdk.internal.vm}), which take JDK 21 or later, and the JVM must export that package to
 * this module: {@code --add-exports java.base/jdk.internal.vm=dev.weft}
 * on the module path, {@code --add-exports java.base/jdk.internal.vm=ALL-UNNAMED} on the class
 * path. Without it, creating a coroutine on the native engine throws an exception that names the
 * option (on JDK 17 to 20, one that names the JDK it needs); the woven engine needs no such
 * access.
 *
 * <p>Two JDK modules are optional: {@code java.management}, for the coroutine dump's MBean
 * ({@link dev.weft.CoroutinesMBean}), and {@code jdk.jfr}, for the JFR events of coroutines'
 * lives. On the class path both are there; on the module path, an application that wants them
 * and does not require them itself adds {@code --add-modules java.management,jdk.jfr}.
 */
@SuppressWarnings("module") // dev.weft.weaver, the one reader of the contract package, is built after this module
module dev.weft {
    // Both optional: the coroutine MBean (CoroutineDump.registerMBean) needs java.management, the
    // JFR events jdk.jfr; without either module, the rest works, and the events are not reported.
    requires static java.management;
    requires static jdk.jfr;

    exports dev.weft;
    // Called by code that weft-weaver emits into woven classes, wherever they live; not API.
    exports dev.weft.internal.woven;
    // The names woven code and the runtime share, which the weaver emits.
    exports dev.weft.internal.contract to dev.weft.weaver;
}
