package dev.weft.contract;

import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;

/** Runs a piece of a test on a new thread of the given name, and hands back its result or what it threw. */
final class OtherThread {

    private OtherThread() {
    }

    static <T> T call(String name, Callable<T> task) throws Throwable {
        FutureTask<T> future = new FutureTask<>(task);
        Thread thread = new Thread(future, name);
        thread.start();
        try {
            return future.get();
        } catch (ExecutionException e) {
            throw e.getCause();
        } finally {
            thread.join();
        }
    }

    static void run(String name, Runnable task) throws Throwable {
        call(name, () -> {
            task.run();
            return null;
        });
    }
}
