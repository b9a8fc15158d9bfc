package dev.weft.weaver.rewrite;

import dev.weft.internal.contract.SiteTable;
import java.util.LinkedHashMap;
import java.util.Map;
import org.objectweb.asm.tree.LabelNode;

/**
 * Where the calls of a class's suspension sites land in its woven code: a label before each,
 * with the site's original bytecode index. The calls of methods left unwoven (constructors, for
 * instance) are listed too, as {@link SiteTable#NOT_A_SITE}, so that the runtime knows which woven
 * bytecode indexes name one site of one method. Read once the class has been written, when the
 * labels have offsets.
 */
public final class WovenSites {

    private final Map<String, Map<LabelNode, Integer>> byMethod = new LinkedHashMap<>();

    void add(String methodKey, Map<LabelNode, Integer> labels) {
        if (!labels.isEmpty()) {
            byMethod.put(methodKey, labels);
        }
    }

    /**
     * The landing table the runtime reads ({@link SiteTable#writeLandings}). Valid right after
     * the class was written, before its methods are visited again.
     */
    public String map() {
        Map<String, Map<Integer, Integer>> landings = new LinkedHashMap<>();
        byMethod.forEach((key, labels) -> {
            Map<Integer, Integer> calls = new LinkedHashMap<>();
            labels.forEach((label, bci) -> calls.put(label.getLabel().getOffset(), bci));
            landings.put(key, calls);
        });
        return SiteTable.writeLandings(landings);
    }
}
