package dev.weft.weaver.rewrite;

import java.util.LinkedHashMap;
import java.util.Map;
import org.objectweb.asm.tree.LabelNode;

/**
 * Where the calls of a class's suspension sites land in its woven code: a label before each,
 * with the site's original bytecode index. The calls of methods left unwoven (constructors, for
 * instance) are listed too, as {@link #NOT_A_SITE}, so that the runtime knows which woven
 * bytecode indexes name one site of one method. Read once the class has been written, when the
 * labels have offsets.
 */
public final class WovenSites {

    /** The original index given to a call that is not a suspension site. */
    static final int NOT_A_SITE = -1;

    private final Map<String, Map<LabelNode, Integer>> byMethod = new LinkedHashMap<>();

    void add(String methodKey, Map<LabelNode, Integer> labels) {
        if (!labels.isEmpty()) {
            byMethod.put(methodKey, labels);
        }
    }

    /**
     * The map the runtime reads: a line per method, {@code key TAB wovenBci:bci,...}. Valid right
     * after the class was written, before its methods are visited again.
     */
    public String map() {
        StringBuilder map = new StringBuilder();
        byMethod.forEach((key, labels) -> {
            map.append(key).append('\t');
            String separator = "";
            for (Map.Entry<LabelNode, Integer> site : labels.entrySet()) {
                map.append(separator).append(site.getKey().getLabel().getOffset()).append(':').append(site.getValue());
                separator = ",";
            }
            map.append('\n');
        });
        return map.toString();
    }
}
