package dev.weft.weaver.agent;

/** Run by {@link AgentIT} under the agent: loads nothing of its own but itself, and says hello. */
public final class Hello {

    private Hello() {
    }

    public static void main(String[] args) {
        System.out.println("hello");
    }
}
