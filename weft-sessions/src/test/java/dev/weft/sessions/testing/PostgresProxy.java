package dev.weft.sessions.testing;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A TCP proxy on 127.0.0.1 between a node and the tests' PostgreSQL server that loses a
 * connection at a chosen point of a step: before its statements reach the server, after its
 * {@code UPDATE} reached it, or after its {@code COMMIT} was done by the server but before the
 * reply reaches the node. It reads the frontend/backend protocol (version 3) message by message,
 * enough to know which statement a message runs: a simple query's text, or an extended query's
 * {@code Execute} through its {@code Bind} to the text its {@code Parse} gave the statement, so
 * that statements the driver prepared once on the server are recognised too. Connect through
 * {@link #url(String)}, which turns off SSL and GSS encryption (the bytes must be plain).
 *
 * <p>A cut is armed with {@link #cut(Cut)} and happens once, on whichever connection first sends
 * what it waits for; {@link #cuts()} counts them. {@link #roundTrips()} counts the round trips
 * the nodes have begun: the messages that ask the server to answer what came before them. {@link #down()} closes every connection and
 * every new one at once, as a server that is down; {@link #up()} ends that.
 *
 * <p>Two threads per connection (one each way) and one accepting; {@link #cut}, {@link #down},
 * {@link #up} and {@link #close} from any thread.
 */
public final class PostgresProxy implements AutoCloseable {

    /** Where a connection is lost. */
    public enum Cut {
        /** The connection is closed when the node sends its next statement, which the server never sees. */
        BEFORE_NEXT_STATEMENT,
        /**
         * The node's next {@code UPDATE weft_sessions} (alone, or in a {@code WITH} that writes the
         * step's history entry too) is sent to the server, then the connection
         * is closed, before the server's reply and anything the node sends after it (a
         * {@code COMMIT} in the same round trip included): the server rolls the transaction back.
         */
        AFTER_UPDATE,
        /**
         * The node's next {@code COMMIT} is sent to the server, whose replies are then dropped
         * until it says it is ready for the next query (the commit is done), and then the
         * connection is closed: the server committed, the node never hears it.
         */
        AFTER_COMMIT
    }

    private final int serverPort;
    private final ServerSocket listener;
    private final Set<Link> links = ConcurrentHashMap.newKeySet();
    private final AtomicReference<Cut> armed = new AtomicReference<>();
    private final AtomicInteger cuts = new AtomicInteger();
    private final AtomicInteger roundTrips = new AtomicInteger();
    private volatile boolean down;

    private PostgresProxy(int serverPort) throws IOException {
        this.serverPort = serverPort;
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread accepting = new Thread(this::accept, "postgres-proxy-accept");
        accepting.setDaemon(true);
        accepting.start();
    }

    /** A proxy to the PostgreSQL server at 127.0.0.1:{@code serverPort}. */
    public static PostgresProxy to(int serverPort) {
        try {
            return new PostgresProxy(serverPort);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The JDBC URL of {@code database} through this proxy, unencrypted. */
    public String url(String database) {
        return "jdbc:postgresql://127.0.0.1:" + listener.getLocalPort() + "/" + database
                + "?sslmode=disable&gssEncMode=disable";
    }

    /** Arms {@code cut}: the next connection to reach its point is lost there. */
    public void cut(Cut cut) {
        armed.set(cut);
    }

    /** How many armed cuts have happened. */
    public int cuts() {
        return cuts.get();
    }

    /**
     * How many round trips the nodes have begun through this proxy, on every connection: each
     * simple query ({@code Query}) and each {@code Sync}, which ends an extended query's messages,
     * asks the server to answer what came before it.
     */
    public int roundTrips() {
        return roundTrips.get();
    }

    /** Closes every connection, and from now on every new one as soon as it is made. */
    public void down() {
        down = true;
        links.forEach(Link::close);
    }

    /** Connections reach the server again. */
    public void up() {
        down = false;
    }

    @Override
    public void close() {
        try {
            listener.close();
        } catch (IOException e) {
            // closing: nothing depends on it
        }
        links.forEach(Link::close);
    }

    private void accept() {
        while (!listener.isClosed()) {
            Socket client;
            try {
                client = listener.accept();
            } catch (IOException e) {
                return; // closed
            }
            if (down) {
                closeQuietly(client);
                continue;
            }
            try {
                Link link = new Link(client, new Socket(InetAddress.getLoopbackAddress(), serverPort));
                links.add(link);
                link.start();
            } catch (IOException e) {
                closeQuietly(client);
            }
        }
    }

    /** Takes the armed cut if it is {@code cut}: whether this message is where it happens. */
    private boolean fire(Cut cut) {
        if (armed.compareAndSet(cut, null)) {
            cuts.incrementAndGet();
            return true;
        }
        return false;
    }

    /** One node connection and its server connection, pumped both ways a message at a time. */
    private final class Link {
        private final Socket client;
        private final Socket server;
        /** The text of each statement the node prepared, by name ("" the unnamed one), and of each portal. */
        private final Map<String, String> statements = new HashMap<>();
        private final Map<String, String> portals = new HashMap<>();
        /** Whether the server's replies are dropped until it is ready for a query, and the link closed then. */
        private volatile boolean droppingReplies;

        Link(Socket client, Socket server) {
            this.client = client;
            this.server = server;
        }

        void start() {
            Thread toServer = new Thread(this::pumpToServer, "postgres-proxy-to-server");
            Thread toClient = new Thread(this::pumpToClient, "postgres-proxy-to-client");
            toServer.setDaemon(true);
            toClient.setDaemon(true);
            toServer.start();
            toClient.start();
        }

        void close() {
            closeQuietly(client);
            closeQuietly(server);
            links.remove(this);
        }

        private void pumpToServer() {
            try (DataInputStream in = new DataInputStream(client.getInputStream())) {
                DataOutputStream out = new DataOutputStream(server.getOutputStream());
                int length = in.readInt(); // the startup message has no type byte
                out.writeInt(length);
                out.write(in.readNBytes(length - 4));
                out.flush();
                while (true) {
                    int type = in.read();
                    if (type < 0) {
                        break;
                    }
                    byte[] body = in.readNBytes(in.readInt() - 4);
                    if (!fromClient(type, body, out)) {
                        break;
                    }
                }
            } catch (IOException e) {
                // a side closed: so does the link
            }
            close();
        }

        /** Handles one message from the node: false once the link is cut. */
        private boolean fromClient(int type, byte[] body, DataOutputStream out) throws IOException {
            String runs = statement(type, body);
            if (isStatement(type) && fire(Cut.BEFORE_NEXT_STATEMENT)) {
                return false;
            }
            if (type == 'Q' || type == 'S') {
                roundTrips.incrementAndGet();
            }
            boolean update = runs != null && (runs.startsWith("UPDATE WEFT_SESSIONS")
                    || runs.startsWith("WITH STORED AS (UPDATE WEFT_SESSIONS")) && fire(Cut.AFTER_UPDATE);
            if (runs != null && runs.equals("COMMIT") && fire(Cut.AFTER_COMMIT)) {
                droppingReplies = true;
            }
            out.write(type);
            out.writeInt(body.length + 4);
            out.write(body);
            out.flush();
            return !update;
        }

        private void pumpToClient() {
            try (DataInputStream in = new DataInputStream(server.getInputStream())) {
                DataOutputStream out = new DataOutputStream(client.getOutputStream());
                while (true) {
                    int type = in.read();
                    if (type < 0) {
                        break;
                    }
                    byte[] body = in.readNBytes(in.readInt() - 4);
                    if (droppingReplies) {
                        if (type == 'Z') {
                            break; // ReadyForQuery: the server is done with the COMMIT
                        }
                        continue;
                    }
                    out.write(type);
                    out.writeInt(body.length + 4);
                    out.write(body);
                    out.flush();
                }
            } catch (IOException e) {
                // a side closed: so does the link
            }
            close();
        }

        /**
         * The statement a message from the node runs, upper case, if it runs one (a simple
         * query, or an Execute); notes what Parse and Bind say on the way.
         */
        private String statement(int type, byte[] body) {
            int[] at = {0};
            switch (type) {
                case 'Q':
                    return normal(text(body, at));
                case 'P': {
                    String name = text(body, at);
                    statements.put(name, text(body, at));
                    return null;
                }
                case 'B': {
                    String portal = text(body, at);
                    portals.put(portal, statements.get(text(body, at)));
                    return null;
                }
                case 'E': {
                    String text = portals.get(text(body, at));
                    return text == null ? null : normal(text);
                }
                default:
                    return null;
            }
        }

        private boolean isStatement(int type) {
            return type == 'Q' || type == 'P' || type == 'B' || type == 'E';
        }
    }

    /** The NUL-terminated string at {@code at[0]} in {@code body}; moves {@code at[0]} past it. */
    private static String text(byte[] body, int[] at) {
        int end = at[0];
        while (body[end] != 0) {
            end++;
        }
        String text = new String(body, at[0], end - at[0], StandardCharsets.UTF_8);
        at[0] = end + 1;
        return text;
    }

    private static String normal(String statement) {
        return statement.strip().toUpperCase(Locale.ROOT);
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // closing: nothing depends on it
        }
    }
}
