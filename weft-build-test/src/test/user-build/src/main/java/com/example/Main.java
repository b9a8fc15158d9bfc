package com.example;

import com.example.flows.Countdown;
import com.example.flows.Interview;
import dev.weft.AsymCoroutine;
import dev.weft.CoroutineInputStream;
import dev.weft.CoroutineOutputStream;
import dev.weft.Engine;
import dev.weft.sessions.SessionStep;
import dev.weft.sessions.SessionStore;
import dev.weft.sessions.Sessions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * First run: a generator, then a countdown on the woven engine, saved to a file, and a session
 * started in an SQLite file. Second run: the countdown loaded back, and the session answered to
 * its end.
 */
public final class Main {

    public static void main(String[] args) throws IOException {
        Path file = Path.of("countdown.bin");
        if (Files.notExists(file)) {
            AsymCoroutine<Void, Integer> squares = new AsymCoroutine<>((self, in) -> {
                int i = 1;
                for (; i < 3; i++) {
                    self.ret(i * i);
                }
                return i * i; // iterating ends with what run returns
            });
            StringBuilder line = new StringBuilder("squares:");
            for (int square : squares) {
                line.append(' ').append(square);
            }
            System.out.println(line);
            AsymCoroutine<Void, Integer> countdown = new AsymCoroutine<>(new Countdown(5), Engine.WOVEN);
            System.out.println("woven: " + countdown.call(null) + " " + countdown.call(null));
            try (var out = new CoroutineOutputStream<Void, Integer>(Files.newOutputStream(file))) {
                out.writeAsymCoroutine(countdown);
            }
            System.out.println("saved to " + file);
            try (SessionStore store = SessionStore.sqlite(Path.of("sessions.db"))) {
                SessionStep<String> step = Sessions.builder(store).build().start("interview", new Interview(), null);
                System.out.println("session " + step.id() + " at version " + step.version() + ": " + step.output());
            }
        } else {
            AsymCoroutine<Void, Integer> countdown;
            try (var in = new CoroutineInputStream<Void, Integer>(Files.newInputStream(file))) {
                countdown = in.readAsymCoroutine();
            }
            StringBuilder line = new StringBuilder("loaded:");
            for (int value : countdown) {
                line.append(' ').append(value);
            }
            System.out.println(line);
            Files.delete(file);
            try (SessionStore store = SessionStore.sqlite(Path.of("sessions.db"))) {
                Sessions sessions = Sessions.builder(store).build();
                SessionStep<String> step = sessions.resume("interview", 1, "Ada");
                System.out.println("session " + step.id() + " at version " + step.version() + ": " + step.output());
                step = sessions.resume("interview", step.version(), "Italy");
                System.out.println("session " + step.id() + " finished: " + step.output());
            }
        }
    }
}
