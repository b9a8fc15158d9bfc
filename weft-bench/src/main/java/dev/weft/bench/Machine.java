package dev.weft.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;

/** The machine and JVM a run was measured on, as the report states it. */
record Machine(String cpu, int cores, long memoryBytes, String os, String jdk, String date, long pidMax) {

    /** Platform threads are capped below the kernel's thread-id space, which all processes share. */
    int platformThreadCap() {
        return pidMax >= 30_000 || pidMax <= 0 ? 20_000 : (int) (pidMax / 2);
    }

    static Machine describe() {
        List<String> cpuinfo = lines("/proc/cpuinfo");
        String cpu = cpuinfo.stream().filter(l -> l.startsWith("model name")).findFirst()
                .map(l -> l.substring(l.indexOf(':') + 1).strip()).orElse("unknown CPU");
        long memKb = lines("/proc/meminfo").stream().filter(l -> l.startsWith("MemTotal:")).findFirst()
                .map(l -> Long.parseLong(l.replaceAll("[^0-9]", ""))).orElse(0L);
        String distro = lines("/etc/os-release").stream().filter(l -> l.startsWith("PRETTY_NAME=")).findFirst()
                .map(l -> l.substring("PRETTY_NAME=".length()).replace("\"", "")).orElse(System.getProperty("os.name"));
        String os = distro + ", kernel " + System.getProperty("os.version") + " (" + System.getProperty("os.arch") + ")";
        String jdk = System.getProperty("java.vm.vendor") + " " + System.getProperty("java.vm.name") + " "
                + System.getProperty("java.runtime.version");
        long pidMax = lines("/proc/sys/kernel/pid_max").stream().findFirst().map(String::strip).map(Long::parseLong).orElse(0L);
        String date = ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'"));
        return new Machine(cpu, Runtime.getRuntime().availableProcessors(), memKb * 1024, os, jdk, date, pidMax);
    }

    private static List<String> lines(String file) {
        try {
            return Files.readAllLines(Path.of(file));
        } catch (IOException | RuntimeException e) {
            return List.of();
        }
    }
}
