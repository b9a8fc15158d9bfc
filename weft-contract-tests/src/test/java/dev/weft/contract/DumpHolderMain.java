package dev.weft.contract;

import dev.weft.Coroutine;
import dev.weft.Engine;
import java.io.IOException;

/**
 * The child JVM of {@link CoroutineMBeanTest}: holds three suspended coroutines on its main
 * thread (a native and a woven asymmetric one, a woven symmetric one), says {@code READY} with
 * its process id, and waits until its standard input ends. The MBean is registered by the
 * system property the parent gives it.
 */
final class DumpHolderMain {

    private DumpHolderMain() {
    }

    public static void main(String[] args) throws IOException {
        DumpContract.Deep nativeDeep = new DumpContract.Deep(Engine.NATIVE);
        nativeDeep.setName("native deep");
        nativeDeep.call(1);
        DumpContract.Deep wovenDeep = new DumpContract.Deep(Engine.WOVEN);
        wovenDeep.setName("woven deep");
        wovenDeep.call(2);
        DumpContract.Spinner spinner = new DumpContract.Spinner(Engine.WOVEN);
        spinner.setName("woven spinner");
        Coroutine.yield();
        System.out.println("READY " + ProcessHandle.current().pid());
        System.out.flush();
        while (System.in.read() >= 0) {
            // held until the parent closes the pipe
        }
    }
}
