package com.example;

import com.example.flows.Countdown;
import dev.weft.AsymCoroutine;
import dev.weft.CoroutineInputStream;
import dev.weft.CoroutineOutputStream;
import dev.weft.Engine;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** First run: a generator, then a countdown on the woven engine, saved to a file. Second run: the countdown loaded back. */
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
        }
    }
}
