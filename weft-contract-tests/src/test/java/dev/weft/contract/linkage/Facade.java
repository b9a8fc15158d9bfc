package dev.weft.contract.linkage;

/** Public, and declares nothing: its methods are {@link Hidden}'s, called as its own. */
public class Facade extends Hidden {
}
