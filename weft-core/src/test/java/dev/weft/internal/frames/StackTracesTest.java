package dev.weft.internal.frames;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Which frames an exception's trace counts as the engine's: by a class's name as by its package's. */
class StackTracesTest {

    @Test
    void aClassIsTheSchedulersExactlyWhenItsPackageIs() {
        List<String> names = List.of("dev.weft.AsymCoroutine", "dev.weft.CoroutineBase$1", "dev.weft.internal.X",
                "dev.weft.internal.woven.Fiber", "dev.weft.internal.woven.Fiber$Control",
                "dev.weft.internal.engine.woven.WovenStack", "dev.weft.examples.Main", "dev.weft.sessions.StepRun",
                "dev.weftx.Y", "dev.weft", "jdk.internal.vm.Continuation", "jdk.internal.vm.annotation.Hidden",
                "jdk.internal.vmx.Z", "java.lang.Thread", "Main", "dev.weft.internalX.Y");
        for (String name : names) {
            int dot = name.lastIndexOf('.');
            boolean byPackage = dot >= 0 && StackTraces.isScheduler(name.substring(0, dot));
            assertEquals(byPackage, StackTraces.isSchedulerClass(name), name);
        }
    }
}
