package dev.weft.weaver;

/** A class the weaver cannot weave: the message names the class, and the method and rule where it can. */
public class WeavingException extends Exception {

    private static final long serialVersionUID = 1L;

    /**
     * A failure to weave.
     *
     * @param message what cannot be woven and why: class, method, descriptor, rule
     * @param cause   what ASM or the analysis threw
     */
    public WeavingException(String message, Throwable cause) {
        super(message, cause);
    }
}
