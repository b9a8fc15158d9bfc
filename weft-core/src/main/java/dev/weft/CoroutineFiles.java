package dev.weft;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import javax.crypto.SecretKey;

/**
 * Writes a suspended coroutine to a file so that the file always holds a whole state, the old
 * one or the new one, whenever the process or the machine stops:
 *
 * <pre>{@code
 * CoroutineFiles.write(Path.of("session.bin"), session, key);   // key may be null: unsealed
 * try (var in = new CoroutineInputStream<String, String>(Files.newInputStream(file), key)) { ... }
 * }</pre>
 *
 * <p>How: the state is written to a temporary file in the same directory (named
 * {@code .<name>.<random>.weft-tmp}), forced to the device ({@code fsync}), moved over the file
 * atomically, and the directory is forced too, where the platform allows it. If anything fails,
 * the temporary file is removed and the file is left as it was; temporary files that a crash
 * left behind are removed by the next write of the same file. A value that cannot be serialized
 * is refused before anything is written (see {@link CoroutineOutputStream}), and the coroutine
 * goes on as it was.
 *
 * <p>Threading: the coroutine must belong to the calling thread. One writer per file at a time:
 * a write removes every temporary file of the same name it finds, another writer's included.
 */
public final class CoroutineFiles {

    private static final String SUFFIX = ".weft-tmp";

    private CoroutineFiles() {
    }

    /**
     * Writes the asymmetric {@code coroutine} to {@code file}, sealed with {@code key} unless it is null.
     *
     * @param file      where it goes; what the file held stays there until the new state is whole on disk
     * @param coroutine a suspended coroutine of the current thread
     * @param key       the key to seal it with, or null for an unsealed file
     * @throws IOException if it cannot be written (the file is then as it was)
     */
    public static void write(Path file, AsymCoroutine<?, ?> coroutine, SecretKey key) throws IOException {
        writeAtomically(file, coroutine, key);
    }

    /**
     * Writes the symmetric {@code coroutine} to {@code file}, sealed with {@code key} unless it is null.
     *
     * @param file      where it goes; what the file held stays there until the new state is whole on disk
     * @param coroutine a suspended coroutine of the current thread
     * @param key       the key to seal it with, or null for an unsealed file
     * @throws IOException if it cannot be written (the file is then as it was)
     */
    public static void write(Path file, Coroutine coroutine, SecretKey key) throws IOException {
        writeAtomically(file, coroutine, key);
    }

    private static void writeAtomically(Path file, CoroutineBase coroutine, SecretKey key) throws IOException {
        Path directory = file.toAbsolutePath().getParent();
        String prefix = "." + file.getFileName() + ".";
        removeStale(directory, prefix);
        Path temporary = Files.createTempFile(directory, prefix, SUFFIX);
        try {
            try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.WRITE)) {
                writeTo(channel, coroutine, key);
                channel.force(true);
            }
            Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(temporary); // gone after a move; removed after a failure
        }
        forceDirectory(directory);
    }

    /** Writes the coroutine's stream into {@code channel}, which stays open for the caller to force. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static void writeTo(FileChannel channel, CoroutineBase coroutine, SecretKey key) throws IOException {
        OutputStream target = new ChannelOutput(channel);
        try (CoroutineOutputStream out = key == null ? new CoroutineOutputStream(target)
                : new CoroutineOutputStream(target, key)) {
            if (coroutine instanceof Coroutine symmetric) {
                out.writeCoroutine(symmetric);
            } else {
                out.writeAsymCoroutine((AsymCoroutine) coroutine);
            }
        }
    }

    private static void removeStale(Path directory, String prefix) throws IOException {
        try (DirectoryStream<Path> stale = Files.newDirectoryStream(directory, p -> {
            String name = p.getFileName().toString();
            return name.startsWith(prefix) && name.endsWith(SUFFIX);
        })) {
            for (Path p : stale) {
                Files.deleteIfExists(p);
            }
        }
    }

    /** Forces the directory's entry for the moved file to the device; a platform that cannot open a directory (Windows) does without. */
    private static void forceDirectory(Path directory) {
        try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
            channel.force(true);
        } catch (IOException | UnsupportedOperationException e) {
            // the move is atomic all the same; only its durability after a power loss is up to the file system
        }
    }

    /** Writes to a channel; closing it leaves the channel open. */
    private static final class ChannelOutput extends OutputStream {
        private final FileChannel channel;

        ChannelOutput(FileChannel channel) {
            this.channel = channel;
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            ByteBuffer buffer = ByteBuffer.wrap(b, off, len);
            while (buffer.hasRemaining()) {
                channel.write(buffer);
            }
        }
    }
}
