package dev.weft.sessions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.sessions.flows.Order;
import dev.weft.sessions.flows.Questionnaire;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

/**
 * A stored session's frames as an operator reads them ({@link Sessions#stack}), on every store
 * and engine: run as a nested class of {@link SessionStoreContract} ({@code Stacks}). Each frame
 * is named as a stack trace names it, with the source line of its call, and each live variable
 * by its name, its type and its value; a row that is not trusted, an ended session and frames
 * that cannot be read give none, and say why. Reading a stack runs none of the session's code.
 */
abstract class SessionStackContract {

    /** The suite whose store, engine and database these tests use. */
    abstract SessionStoreContract suite();

    /** The line of {@code Order.java} that holds {@code text}, counted from 1. */
    static int lineOf(String text) throws IOException {
        List<String> lines = Files.readAllLines(Path.of("src/test/java/dev/weft/sessions/flows/Order.java"));
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).contains(text)) {
                return i + 1;
            }
        }
        throw new AssertionError("Order.java has no line with " + text);
    }

    /** A frame's variables by name (those without one left out), each as "type = value". */
    static Map<String, String> variables(SessionStack.Frame frame) {
        Map<String, String> named = new LinkedHashMap<>();
        for (SessionStack.Variable variable : frame.variables()) {
            if (variable.name() != null) {
                named.put(variable.name(), variable.type() + " = " + variable.value());
            }
        }
        return named;
    }

    @Test
    void eachFrameIsNamedByItsSourceLineAndEachLiveVariableByItsNameTypeAndValue() throws IOException {
        Sessions node = suite().sessions;
        String id = node.start(new Order(), "book").id();
        SessionStack stack = node.stack(id).orElseThrow();
        assertNull(stack.refusal());
        assertEquals(id, stack.id());
        assertEquals(1, stack.version());
        List<String> places = stack.frames().stream().map(frame -> frame.place().toString()).toList();
        assertEquals("dev.weft.sessions.flows.Order.confirm(Order.java:" + lineOf("the innermost frame") + ")",
                places.get(0), places.toString());
        assertEquals("dev.weft.sessions.flows.Order.run(Order.java:" + lineOf("the caller's frame") + ")",
                places.get(1), places.toString());

        Map<String, String> inner = variables(stack.frames().get(0));
        assertEquals("java.lang.String = \"book\"", inner.get("item"), inner.toString());
        assertTrue(!inner.containsKey("question") && !inner.containsKey("quantity"),
                "locals dead after the call hold no value: " + inner);

        Map<String, String> outer = variables(stack.frames().get(1));
        assertEquals("java.lang.String = \"Ada \\\"Lovelace\\\"\"", outer.get("customer"));
        assertEquals("int = 3", outer.get("quantity"));
        assertEquals("long = 4250", outer.get("cents"));
        assertEquals("double = 1.5", outer.get("weight"));
        assertEquals("boolean = true", outer.get("gift"));
        assertEquals("char = 'M'", outer.get("size"));
        assertEquals("dev.weft.sessions.flows.Order$Stage = dev.weft.sessions.flows.Order$Stage.PAID",
                outer.get("stage"));
        assertEquals("java.time.LocalDate = 2026-12-24", outer.get("due"));
        assertEquals("java.util.ArrayList = java.util.ArrayList (2 elements) [\"book\", \"ribbon\"]",
                outer.get("lines"), "the type the weaver recorded: the value's, as the verifier infers it");
        assertEquals("dev.weft.sessions.flows.Order$Customer = dev.weft.sessions.flows.Order$Customer (2 fields)",
                outer.get("who"));
        assertEquals("int[] = int[100]", outer.get("boxes"));
        assertEquals("dev.weft.AsymCoroutine = (the session's coroutine)", outer.get("self"), outer.toString());
        assertEquals("dev.weft.sessions.flows.Order = dev.weft.sessions.flows.Order (1 field)", outer.get("this"),
                "an object whose field refers to the coroutine itself is read: " + outer);
        assertEquals("Ada \"Lovelace\"" + "3" + "4250" + "1.5" + "true" + "M" + "PAID" + "2026-12-24"
                + "[book, ribbon]" + "Ada" + "100" + "I will (book)", node.<String, String>resume(id, "I will")
                .output(), "the stack was only looked at: the session resumes from it");
    }

    @Test
    void aSessionWithoutFramesSaysWhyAndAnUnknownOneHasNoStack() throws SQLException {
        Sessions keeping = suite().builder().keepFinished(true).build();
        String finished = keeping.start(new Order(), "pen").id();
        keeping.<String, String>resume(finished, "yes");
        SessionStack ended = keeping.stack(finished).orElseThrow();
        assertEquals(List.of(), ended.frames());
        assertEquals("it has finished, so no frames are stored", ended.refusal());
        String cancelled = keeping.start(new Questionnaire(), null).id();
        keeping.cancel(cancelled);
        assertEquals("it was cancelled, so no frames are stored", keeping.stack(cancelled).orElseThrow().refusal());
        assertTrue(keeping.stack("no-such-session").isEmpty());
    }

    @Test
    void framesThatCannotBeReadGiveTheReadersReasonAndTheRowIsLeftAsItWas() throws SQLException {
        Sessions node = suite().sessions;
        String id = node.start(new Order(), "cup").id();
        byte[] state;
        try (Connection connection = suite().connect()) {
            state = (byte[]) StoredRows.read(connection, id).get("state");
            byte[] cut = java.util.Arrays.copyOf(state, state.length / 2);
            StoredRows.set(connection, id, "state", cut);
        }
        SessionStack stack = node.stack(id).orElseThrow();
        assertEquals(List.of(), stack.frames());
        assertTrue(stack.refusal().startsWith("its frames cannot be read here: "), stack.refusal());
        try (Connection connection = suite().connect()) {
            assertEquals(state.length / 2, ((byte[]) StoredRows.read(connection, id).get("state")).length);
            StoredRows.set(connection, id, "state", state);
        }
        assertEquals(2, node.stack(id).orElseThrow().frames().size(), "put back, it reads again");
    }

    @Test
    void aSealedRowChangedInTheStoreShowsItsRefusalNotItsFrames() throws SQLException {
        Sessions sealing = suite().builder().sealWith(new SecretKeySpec(new byte[32], "HmacSHA256")).build();
        String id = sealing.start(new Order(), "lamp").id();
        assertEquals(2, sealing.stack(id).orElseThrow().frames().size());
        try (Connection connection = suite().connect()) {
            StoredRows.set(connection, id, "point", "changed");
        }
        SessionStack refused = sealing.stack(id).orElseThrow();
        assertEquals(List.of(), refused.frames());
        assertTrue(refused.refusal().startsWith("column point differs from what was sealed"), refused.refusal());
        SessionStack unsealed = suite().builder().build().stack(id).orElseThrow();
        assertEquals("column seal is set: the row was sealed with a key, and this node has none", unsealed.refusal());
    }

    @Test
    void theCommandPrintsTheStackAsAStackTraceWithItsVariables() throws IOException {
        String id = suite().sessions.start(new Order(), "book").id();
        List<String> args = new ArrayList<>(suite().commandStore());
        args.addAll(List.of("stack", id));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int status = SessionsCommand.run(args.toArray(String[]::new), new PrintStream(out, true,
                StandardCharsets.UTF_8), new PrintStream(new ByteArrayOutputStream()), getClass().getClassLoader());
        assertEquals(0, status);
        List<String> lines = out.toString(StandardCharsets.UTF_8).lines().toList();
        assertEquals("at dev.weft.sessions.flows.Order.confirm(Order.java:" + lineOf("the innermost frame") + ")",
                lines.get(0), lines.toString());
        assertTrue(lines.contains("    item (java.lang.String) = \"book\""), lines.toString());
        assertTrue(lines.contains("at dev.weft.sessions.flows.Order.run(Order.java:" + lineOf("the caller's frame")
                + ")"), lines.toString());
        assertTrue(lines.contains("    quantity (int) = 3"), lines.toString());
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        List<String> unknown = new ArrayList<>(suite().commandStore());
        unknown.addAll(List.of("stack", "no-such-session"));
        assertEquals(1, SessionsCommand.run(unknown.toArray(String[]::new), new PrintStream(new ByteArrayOutputStream()),
                new PrintStream(err, true, StandardCharsets.UTF_8), getClass().getClassLoader()));
        assertEquals("no session no-such-session", err.toString(StandardCharsets.UTF_8).trim());
    }
}
